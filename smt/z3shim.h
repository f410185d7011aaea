// z3shim.h: the C helpers of package smt. Each helper fuses the Z3 calls of
// one Go operation into one cgo crossing and reports failure as a return
// code instead of letting Z3 call its default error handler (which exits the
// process). The context is created with Z3_mk_context_rc and a NULL error
// handler; every helper checks the results of the calls it makes.
//
// Return codes: 0 (Z3_OK) on success, a Z3_error_code, or one of SHIM_E*.
// On failure the message is copied into shim_ctx.errmsg at once.
#ifndef FENCER_Z3SHIM_H
#define FENCER_Z3SHIM_H

#include <pthread.h>
#include <stdint.h>
#include <z3.h>

// Codes of the shim's own failures (above every Z3_error_code).
enum {
	SHIM_EBAD = 1000,    // malformed program for shim_build
	SHIM_ERANGE = 1001,  // a value does not fit in int64
	SHIM_EVALUE = 1002,  // model evaluation gave no numeral/boolean
	SHIM_ENOMEM = 1003,  // malloc failed
	SHIM_EGAVEUP = 1004, // the engine gave up with an exception (an unknown)
};

// Interrupts. Z3 4.8.12 keeps a Z3_interrupt that arrives while no check
// runs (or just after one returned), and then fails the next push, pop or
// simplify with "canceled". So shim_interrupt calls Z3_interrupt only while
// a helper is inside a check or a fixedpoint query (in_query, under mu),
// and when it did, the helper clears any leftover cancel afterwards with a
// check of the empty scratch solver.
typedef struct shim_ctx {
	Z3_context c;
	Z3_sort int_sort, bool_sort;
	Z3_ast tru, fls, zero;
	Z3_solver scratch; // always empty
	Z3_ast *stack;     // operand stack of shim_build
	int32_t cap;
	pthread_mutex_t mu;
	int in_query;  // under mu
	int delivered; // under mu: Z3_interrupt was called in this query
	int64_t refs;  // references to terms taken by the shim and not released
	char errmsg[1024];
} shim_ctx;

// The instructions of shim_build. The opcodes 0..16 are expr.Op (OpAdd ..
// OpImplies); a test checks that the numbering agrees.
enum {
	SHIM_ADD = 0, SHIM_SUB, SHIM_MUL, SHIM_DIV, SHIM_MOD, SHIM_NEG, SHIM_ITE,
	SHIM_EQ, SHIM_NE, SHIM_LT, SHIM_LE, SHIM_GT, SHIM_GE, SHIM_AND, SHIM_OR,
	SHIM_NOT, SHIM_IMPLIES,
	SHIM_AST = 32, // push the term (Z3_ast)v
	SHIM_INT,      // push the numeral v
	SHIM_VAR,      // push the integer constant named names+v
	SHIM_LOAD,     // push slots[v]
	SHIM_SAVE,     // slots[v] = top, with a reference of its own
	SHIM_ROOT,     // roots[v] = top, and pop it
};

typedef struct shim_instr {
	int32_t op;
	int32_t n; // number of operands for ADD/MUL/AND/OR
	int64_t v;
} shim_instr;

// What Go needs to know about one node of a Z3 term.
typedef struct shim_node {
	int32_t kind;  // Z3_ast_kind
	int32_t decl;  // Z3_decl_kind of an application
	int32_t nargs; // number of arguments of an application
	int32_t sort;  // Z3_sort_kind of the node
	int32_t fits;  // a numeral that fits in int64
	int64_t ival;  // its value; the index of a bound variable
	const char *name; // the name of a constant; valid until the next Z3 call
} shim_node;

int shim_new(shim_ctx **out);
void shim_del(shim_ctx *s);
void shim_interrupt(shim_ctx *s);

int shim_build(shim_ctx *s, const shim_instr *code, int32_t ncode,
	const char *names, Z3_ast *slots, Z3_ast *roots);
void shim_release(shim_ctx *s, const Z3_ast *asts, int32_t n);

int shim_solver_new(shim_ctx *s, Z3_solver *out);
void shim_solver_del(shim_ctx *s, Z3_solver sv);
int shim_push(shim_ctx *s, Z3_solver sv);
int shim_pop(shim_ctx *s, Z3_solver sv, uint32_t n);
int shim_reset(shim_ctx *s, Z3_solver sv);
int shim_assert(shim_ctx *s, Z3_solver sv, const Z3_ast *fs, int32_t n);
// shim_check copies the reason into errmsg when the answer is unknown, and
// marks the assumptions in the unsat core (in_core may be NULL).
int shim_check(shim_ctx *s, Z3_solver sv, const Z3_ast *assumptions, int32_t n, int32_t *res,
	int32_t *in_core);
int shim_check_with(shim_ctx *s, Z3_solver sv, const Z3_ast *fs, int32_t n, int32_t *res);
int shim_unsat_core(shim_ctx *s, Z3_solver sv, const Z3_ast *assumptions, int32_t n, int32_t *in_core);
int shim_solver_string(shim_ctx *s, Z3_solver sv, const char **out);

int shim_model(shim_ctx *s, Z3_solver sv, Z3_model *out);
void shim_model_del(shim_ctx *s, Z3_model m);
int shim_eval(shim_ctx *s, Z3_model m, Z3_ast t, int64_t *v);

int shim_node_info(shim_ctx *s, Z3_ast a, shim_node *info, Z3_ast *args, int32_t cap);
int shim_simplify(shim_ctx *s, Z3_ast a, Z3_ast *out);
int shim_ast_string(shim_ctx *s, Z3_ast a, const char **out);

// shim_first_unsat asserts steps[0..n-1] one by one in a new scope of sv and
// checks after each; *k is the number of steps of the shortest unsatisfiable
// prefix (*res == Z3_L_FALSE), or *res is Z3_L_TRUE (all satisfiable) or
// Z3_L_UNDEF (a check was undecided; reason in errmsg). The scope is popped.
int shim_first_unsat(shim_ctx *s, Z3_solver sv, const Z3_ast *steps, int32_t n,
	int32_t *k, int32_t *res);

int shim_interpolate(shim_ctx *s, int32_t n, const Z3_ast *steps,
	const int32_t *cut_off, const Z3_ast *cut_vars,
	const int32_t *rule_off, const Z3_ast *rule_vars,
	const char *opts, int32_t *res, Z3_ast *itps);

// Benchmark support: the query loop of BenchmarkCheck written against the
// C API directly.
int shim_bench_loop(shim_ctx *s, Z3_solver sv, const Z3_ast *negs, int32_t nneg,
	int64_t iters, int64_t *nsat);

#endif
