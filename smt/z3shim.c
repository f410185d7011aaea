// z3shim.c: see z3shim.h.
#include "z3shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// fail records the message of code (a Z3_error_code) and returns it. A NULL
// result without an error code is reported as Z3_EXCEPTION.
static int fail(shim_ctx *s, int code) {
	if (code == Z3_OK) {
		code = Z3_EXCEPTION;
	}
	const char *m = Z3_get_error_msg(s->c, (Z3_error_code)code);
	snprintf(s->errmsg, sizeof s->errmsg, "%s", m ? m : "unknown Z3 error");
	return code;
}

static int fail_own(shim_ctx *s, int code, const char *msg) {
	snprintf(s->errmsg, sizeof s->errmsg, "%s", msg);
	return code;
}

// ERRCODE returns the error code of the last Z3 call, recording its message.
#define ERRCODE(s) (Z3_get_error_code((s)->c) == Z3_OK ? Z3_OK : fail((s), Z3_get_error_code((s)->c)))

// keep and drop take and release a reference, counting them in s->refs.
static void keep(shim_ctx *s, Z3_ast a) {
	Z3_inc_ref(s->c, a);
	s->refs++;
}

static void drop(shim_ctx *s, Z3_ast a) {
	if (a) {
		Z3_dec_ref(s->c, a);
		s->refs--;
	}
}

// no_ctrl_c stops Z3 from installing its own SIGINT handler around each
// check (solver parameter ctrl_c, on by default): it would swallow the
// user's Ctrl-C, which the Go side turns into an interrupt itself.
static void no_ctrl_c(Z3_context c, Z3_solver sv) {
	Z3_params p = Z3_mk_params(c);
	Z3_params_inc_ref(c, p);
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	Z3_solver_set_params(c, sv, p);
	Z3_params_dec_ref(c, p);
}

int shim_new(shim_ctx **out) {
	*out = NULL;
	shim_ctx *s = calloc(1, sizeof *s);
	if (!s) {
		return SHIM_ENOMEM;
	}
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	s->c = Z3_mk_context_rc(cfg);
	Z3_del_config(cfg);
	if (!s->c) {
		free(s);
		return SHIM_ENOMEM;
	}
	Z3_context c = s->c;
	Z3_set_error_handler(c, NULL);
	s->int_sort = Z3_mk_int_sort(c);
	keep(s, Z3_sort_to_ast(c, s->int_sort));
	s->bool_sort = Z3_mk_bool_sort(c);
	keep(s, Z3_sort_to_ast(c, s->bool_sort));
	s->tru = Z3_mk_true(c);
	keep(s, s->tru);
	s->fls = Z3_mk_false(c);
	keep(s, s->fls);
	s->zero = Z3_mk_int64(c, 0, s->int_sort);
	keep(s, s->zero);
	s->scratch = Z3_mk_simple_solver(c);
	if (s->scratch) {
		Z3_solver_inc_ref(c, s->scratch);
		no_ctrl_c(c, s->scratch);
	}
	int rc = Z3_get_error_code(c);
	if (rc != Z3_OK || !s->scratch || pthread_mutex_init(&s->mu, NULL) != 0) {
		Z3_del_context(c);
		free(s);
		return rc != Z3_OK ? rc : SHIM_ENOMEM;
	}
	*out = s;
	return Z3_OK;
}

// enter and leave bracket the calls that shim_interrupt may stop.
static void enter(shim_ctx *s) {
	pthread_mutex_lock(&s->mu);
	s->in_query = 1;
	pthread_mutex_unlock(&s->mu);
}

static void leave(shim_ctx *s) {
	pthread_mutex_lock(&s->mu);
	s->in_query = 0;
	int delivered = s->delivered;
	s->delivered = 0;
	pthread_mutex_unlock(&s->mu);
	if (delivered) {
		Z3_solver_check(s->c, s->scratch); // clears a cancel that came late
	}
}

void shim_del(shim_ctx *s) {
	Z3_context c = s->c;
	drop(s, Z3_sort_to_ast(c, s->int_sort));
	drop(s, Z3_sort_to_ast(c, s->bool_sort));
	drop(s, s->tru);
	drop(s, s->fls);
	drop(s, s->zero);
	Z3_solver_dec_ref(c, s->scratch);
	Z3_del_context(c);
	pthread_mutex_destroy(&s->mu);
	free(s->stack);
	free(s);
}

void shim_interrupt(shim_ctx *s) {
	pthread_mutex_lock(&s->mu);
	if (s->in_query) {
		Z3_interrupt(s->c);
		s->delivered = 1;
	}
	pthread_mutex_unlock(&s->mu);
}

// divmod builds C's truncating x/d or x%d from Z3's euclidean div and mod:
// ite(x >= 0, x op d, -((-x) op d)).
static Z3_ast divmod(Z3_context c, shim_ctx *s, int op, Z3_ast x, Z3_ast d) {
	Z3_ast t[5] = {0};
	Z3_ast r = NULL;
	if (!(t[0] = Z3_mk_ge(c, x, s->zero))) goto out;
	keep(s, t[0]);
	if (!(t[1] = Z3_mk_unary_minus(c, x))) goto out;
	keep(s, t[1]);
	if (!(t[2] = op == SHIM_DIV ? Z3_mk_div(c, x, d) : Z3_mk_mod(c, x, d))) goto out;
	keep(s, t[2]);
	if (!(t[3] = op == SHIM_DIV ? Z3_mk_div(c, t[1], d) : Z3_mk_mod(c, t[1], d))) goto out;
	keep(s, t[3]);
	if (!(t[4] = Z3_mk_unary_minus(c, t[3]))) goto out;
	keep(s, t[4]);
	r = Z3_mk_ite(c, t[0], t[2], t[4]);
	if (r) {
		keep(s, r);
	}
out:
	for (int i = 0; i < 5; i++) {
		drop(s, t[i]);
	}
	return r; // with a reference, or NULL
}

int shim_build(shim_ctx *s, const shim_instr *code, int32_t ncode,
	const char *names, Z3_ast *slots, Z3_ast *roots) {
	Z3_context c = s->c;
	if (s->cap < ncode + 1) {
		Z3_ast *st = realloc(s->stack, sizeof(Z3_ast) * (size_t)(ncode + 1));
		if (!st) {
			return fail_own(s, SHIM_ENOMEM, "out of memory");
		}
		s->stack = st;
		s->cap = ncode + 1;
	}
	Z3_ast *st = s->stack;
	int32_t sp = 0, pc = 0;
	int rc = Z3_OK;
	for (; pc < ncode; pc++) {
		const shim_instr *in = &code[pc];
		int32_t n = 0; // operands consumed
		Z3_ast r = NULL;
		switch (in->op) {
		case SHIM_AST:
			st[sp++] = (Z3_ast)(intptr_t)in->v;
			keep(s, st[sp - 1]);
			continue;
		case SHIM_LOAD:
			st[sp++] = slots[in->v];
			keep(s, st[sp - 1]);
			continue;
		case SHIM_INT:
			r = Z3_mk_int64(c, in->v, s->int_sort);
			break;
		case SHIM_VAR: {
			Z3_symbol sym = Z3_mk_string_symbol(c, names + in->v);
			r = sym ? Z3_mk_const(c, sym, s->int_sort) : NULL;
			break;
		}
		case SHIM_SAVE:
			if (sp < 1) goto bad;
			slots[in->v] = st[sp - 1];
			keep(s, st[sp - 1]);
			continue;
		case SHIM_ROOT:
			if (sp < 1) goto bad;
			roots[in->v] = st[sp - 1];
			drop(s, st[--sp]);
			continue;
		case SHIM_ADD: case SHIM_SUB: case SHIM_MUL: case SHIM_AND: case SHIM_OR:
			n = in->n;
			if (n < 1 || sp < n) goto bad;
			break;
		case SHIM_NEG: case SHIM_NOT:
			n = 1;
			break;
		case SHIM_DIV: case SHIM_MOD: case SHIM_EQ: case SHIM_NE: case SHIM_LT:
		case SHIM_LE: case SHIM_GT: case SHIM_GE: case SHIM_IMPLIES:
			n = 2;
			break;
		case SHIM_ITE:
			n = 3;
			break;
		default:
			goto bad;
		}
		if (sp < n) goto bad;
		Z3_ast *a = st + sp - n;
		switch (in->op) {
		case SHIM_INT: case SHIM_VAR: break;
		case SHIM_ADD: r = Z3_mk_add(c, (unsigned)n, a); break;
		case SHIM_SUB: r = Z3_mk_sub(c, (unsigned)n, a); break;
		case SHIM_MUL: r = Z3_mk_mul(c, (unsigned)n, a); break;
		case SHIM_AND: r = Z3_mk_and(c, (unsigned)n, a); break;
		case SHIM_OR: r = Z3_mk_or(c, (unsigned)n, a); break;
		case SHIM_NEG: r = Z3_mk_unary_minus(c, a[0]); break;
		case SHIM_NOT: r = Z3_mk_not(c, a[0]); break;
		case SHIM_EQ: r = Z3_mk_eq(c, a[0], a[1]); break;
		case SHIM_NE: r = Z3_mk_distinct(c, 2, a); break;
		case SHIM_LT: r = Z3_mk_lt(c, a[0], a[1]); break;
		case SHIM_LE: r = Z3_mk_le(c, a[0], a[1]); break;
		case SHIM_GT: r = Z3_mk_gt(c, a[0], a[1]); break;
		case SHIM_GE: r = Z3_mk_ge(c, a[0], a[1]); break;
		case SHIM_IMPLIES: r = Z3_mk_implies(c, a[0], a[1]); break;
		case SHIM_ITE: r = Z3_mk_ite(c, a[0], a[1], a[2]); break;
		case SHIM_DIV: case SHIM_MOD:
			r = divmod(c, s, in->op, a[0], a[1]); // with a reference
			break;
		}
		if (!r) {
			rc = fail(s, Z3_get_error_code(c));
			goto cleanup;
		}
		if (in->op != SHIM_DIV && in->op != SHIM_MOD) {
			keep(s, r);
		}
		for (int32_t i = 0; i < n; i++) {
			drop(s, a[i]);
		}
		sp -= n;
		st[sp++] = r;
	}
	if (sp != 0) goto bad;
	return Z3_OK;
bad:
	rc = fail_own(s, SHIM_EBAD, "smt: malformed term program");
cleanup:
	while (sp > 0) {
		drop(s, st[--sp]);
	}
	for (int32_t i = 0; i < pc && i < ncode; i++) {
		if (code[i].op == SHIM_SAVE && slots[code[i].v]) {
			drop(s, slots[code[i].v]);
			slots[code[i].v] = NULL;
		}
	}
	return rc;
}

void shim_release(shim_ctx *s, const Z3_ast *asts, int32_t n) {
	for (int32_t i = 0; i < n; i++) {
		drop(s, asts[i]);
	}
}

int shim_solver_new(shim_ctx *s, Z3_solver *out) {
	Z3_solver sv = Z3_mk_simple_solver(s->c);
	if (!sv) {
		return fail(s, Z3_get_error_code(s->c));
	}
	Z3_solver_inc_ref(s->c, sv);
	no_ctrl_c(s->c, sv);
	*out = sv;
	return ERRCODE(s);
}

void shim_solver_del(shim_ctx *s, Z3_solver sv) { Z3_solver_dec_ref(s->c, sv); }

int shim_push(shim_ctx *s, Z3_solver sv) {
	Z3_solver_push(s->c, sv);
	return ERRCODE(s);
}

int shim_pop(shim_ctx *s, Z3_solver sv, uint32_t n) {
	Z3_solver_pop(s->c, sv, n);
	return ERRCODE(s);
}

int shim_reset(shim_ctx *s, Z3_solver sv) {
	Z3_solver_reset(s->c, sv);
	return ERRCODE(s);
}

int shim_assert(shim_ctx *s, Z3_solver sv, const Z3_ast *fs, int32_t n) {
	for (int32_t i = 0; i < n; i++) {
		Z3_solver_assert(s->c, sv, fs[i]);
		int rc = ERRCODE(s);
		if (rc != Z3_OK) {
			return rc;
		}
	}
	return Z3_OK;
}

int shim_check(shim_ctx *s, Z3_solver sv, const Z3_ast *assumptions, int32_t n, int32_t *res,
	int32_t *in_core) {
	enter(s);
	Z3_lbool r = n > 0 ? Z3_solver_check_assumptions(s->c, sv, (unsigned)n, assumptions)
			   : Z3_solver_check(s->c, sv);
	*res = r;
	int rc = ERRCODE(s);
	leave(s);
	if (rc == Z3_OK && r == Z3_L_UNDEF) {
		// copy the reason now: check_with pops before returning
		Z3_string why = Z3_solver_get_reason_unknown(s->c, sv);
		snprintf(s->errmsg, sizeof s->errmsg, "%s", why ? why : "unknown");
	}
	if (rc == Z3_OK && r == Z3_L_FALSE && n > 0 && in_core) {
		rc = shim_unsat_core(s, sv, assumptions, n, in_core);
	}
	return rc;
}

int shim_check_with(shim_ctx *s, Z3_solver sv, const Z3_ast *fs, int32_t n, int32_t *res) {
	*res = Z3_L_UNDEF;
	int rc = shim_push(s, sv);
	if (rc != Z3_OK) {
		return rc;
	}
	rc = shim_assert(s, sv, fs, n);
	if (rc == Z3_OK) {
		rc = shim_check(s, sv, NULL, 0, res, NULL);
	}
	Z3_solver_pop(s->c, sv, 1);
	if (rc == Z3_OK) {
		rc = ERRCODE(s);
	}
	return rc;
}

int shim_unsat_core(shim_ctx *s, Z3_solver sv, const Z3_ast *assumptions, int32_t n, int32_t *in_core) {
	Z3_context c = s->c;
	Z3_ast_vector v = Z3_solver_get_unsat_core(c, sv);
	if (!v) {
		return fail(s, Z3_get_error_code(c));
	}
	Z3_ast_vector_inc_ref(c, v);
	unsigned m = Z3_ast_vector_size(c, v);
	for (int32_t i = 0; i < n; i++) {
		in_core[i] = 0;
	}
	for (unsigned j = 0; j < m; j++) {
		Z3_ast a = Z3_ast_vector_get(c, v, j);
		for (int32_t i = 0; i < n; i++) {
			if (assumptions[i] == a) {
				in_core[i] = 1;
			}
		}
	}
	Z3_ast_vector_dec_ref(c, v);
	return ERRCODE(s);
}

int shim_solver_string(shim_ctx *s, Z3_solver sv, const char **out) {
	*out = Z3_solver_to_string(s->c, sv);
	return *out ? Z3_OK : fail(s, Z3_get_error_code(s->c));
}

int shim_model(shim_ctx *s, Z3_solver sv, Z3_model *out) {
	Z3_model m = Z3_solver_get_model(s->c, sv);
	if (!m) {
		return fail(s, Z3_get_error_code(s->c));
	}
	Z3_model_inc_ref(s->c, m);
	*out = m;
	return Z3_OK;
}

void shim_model_del(shim_ctx *s, Z3_model m) { Z3_model_dec_ref(s->c, m); }

int shim_eval(shim_ctx *s, Z3_model m, Z3_ast t, int64_t *v) {
	Z3_context c = s->c;
	Z3_ast r = NULL;
	if (!Z3_model_eval(c, m, t, true, &r) || !r) {
		return fail(s, Z3_get_error_code(c));
	}
	keep(s, r);
	int rc = Z3_OK;
	Z3_sort_kind k = Z3_get_sort_kind(c, Z3_get_sort(c, r));
	if (k == Z3_BOOL_SORT) {
		Z3_lbool b = Z3_get_bool_value(c, r);
		if (b == Z3_L_UNDEF) {
			rc = fail_own(s, SHIM_EVALUE, "smt: model gives no boolean value");
		}
		*v = b == Z3_L_TRUE;
	} else if (!Z3_is_numeral_ast(c, r)) {
		rc = fail_own(s, SHIM_EVALUE, "smt: model gives no numeral");
	} else if (!Z3_get_numeral_int64(c, r, v)) {
		rc = fail_own(s, SHIM_ERANGE, "smt: model value out of the 64-bit range");
	}
	drop(s, r);
	return rc;
}

int shim_node_info(shim_ctx *s, Z3_ast a, shim_node *info, Z3_ast *args, int32_t cap) {
	Z3_context c = s->c;
	memset(info, 0, sizeof *info);
	Z3_ast_kind k = Z3_get_ast_kind(c, a);
	info->kind = k;
	info->sort = -1;
	if (k == Z3_APP_AST || k == Z3_NUMERAL_AST || k == Z3_VAR_AST) {
		info->sort = Z3_get_sort_kind(c, Z3_get_sort(c, a));
	}
	switch (k) {
	case Z3_NUMERAL_AST: {
		int64_t v = 0;
		info->decl = Z3_OP_ANUM;
		info->fits = Z3_get_numeral_int64(c, a, &v);
		info->ival = v;
		break;
	}
	case Z3_VAR_AST:
		info->ival = Z3_get_index_value(c, a);
		break;
	case Z3_APP_AST: {
		Z3_app app = Z3_to_app(c, a);
		Z3_func_decl d = Z3_get_app_decl(c, app);
		info->decl = Z3_get_decl_kind(c, d);
		info->nargs = (int32_t)Z3_get_app_num_args(c, app);
		for (int32_t i = 0; i < info->nargs && i < cap; i++) {
			args[i] = Z3_get_app_arg(c, app, (unsigned)i);
		}
		if (info->decl == Z3_OP_UNINTERPRETED && info->nargs == 0) {
			Z3_symbol sym = Z3_get_decl_name(c, d);
			if (Z3_get_symbol_kind(c, sym) == Z3_STRING_SYMBOL) {
				info->name = Z3_get_symbol_string(c, sym);
			}
		}
		break;
	}
	default:
		break;
	}
	return ERRCODE(s);
}

int shim_simplify(shim_ctx *s, Z3_ast a, Z3_ast *out) {
	Z3_ast r = Z3_simplify(s->c, a);
	if (!r) {
		return fail(s, Z3_get_error_code(s->c));
	}
	keep(s, r);
	*out = r;
	return Z3_OK;
}

int shim_ast_string(shim_ctx *s, Z3_ast a, const char **out) {
	*out = Z3_ast_to_string(s->c, a);
	return *out ? Z3_OK : fail(s, Z3_get_error_code(s->c));
}

int shim_first_unsat(shim_ctx *s, Z3_solver sv, const Z3_ast *steps, int32_t n,
	int32_t *k, int32_t *res) {
	*k = 0;
	*res = Z3_L_TRUE;
	int rc = shim_push(s, sv);
	if (rc != Z3_OK) {
		return rc;
	}
	for (int32_t i = 0; i < n; i++) {
		rc = shim_assert(s, sv, steps + i, 1);
		if (rc == Z3_OK) {
			rc = shim_check(s, sv, NULL, 0, res, NULL);
		}
		if (rc != Z3_OK || *res != Z3_L_TRUE) {
			*k = i + 1;
			break;
		}
	}
	Z3_solver_pop(s->c, sv, 1);
	if (rc == Z3_OK) {
		rc = ERRCODE(s);
	}
	return rc;
}

// set_opts adds "name=value" pairs separated by spaces to p: true/false
// as booleans, digits as unsigned, anything else as a symbol.
static int set_opts(shim_ctx *s, Z3_params p, const char *opts) {
	Z3_context c = s->c;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", opts);
	for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(tok, '=');
		if (!eq) {
			return fail_own(s, SHIM_EBAD, "smt: option without '='");
		}
		*eq = 0;
		const char *v = eq + 1;
		Z3_symbol k = Z3_mk_string_symbol(c, tok);
		if (!strcmp(v, "true") || !strcmp(v, "false")) {
			Z3_params_set_bool(c, p, k, !strcmp(v, "true"));
		} else if (strspn(v, "0123456789") == strlen(v) && *v) {
			Z3_params_set_uint(c, p, k, (unsigned)strtoul(v, NULL, 10));
		} else {
			Z3_params_set_symbol(c, p, k, Z3_mk_string_symbol(c, v));
		}
		int rc = ERRCODE(s);
		if (rc != Z3_OK) {
			return rc;
		}
	}
	return Z3_OK;
}

// Horn-clause encoding of a path A_1..A_n (steps[0..n-1]) for Spacer:
//   P_1(V_1) <- A_1;  P_i(V_i) <- P_{i-1}(V_{i-1}) & A_i;  Err <- P_{n-1}(V_{n-1}) & A_n
// cut i (0-based, P_{i+1}) has the arguments cut_vars[cut_off[i] .. cut_off[i+1]),
// rule i binds rule_vars[rule_off[i] .. rule_off[i+1]).
int shim_interpolate(shim_ctx *s, int32_t n, const Z3_ast *steps,
	const int32_t *cut_off, const Z3_ast *cut_vars,
	const int32_t *rule_off, const Z3_ast *rule_vars,
	const char *opts, int32_t *res, Z3_ast *itps) {
	Z3_context c = s->c;
	int32_t m = n - 1; // number of predicates
	int rc = Z3_OK;
	*res = Z3_L_UNDEF;
	if (n < 2) {
		return fail_own(s, SHIM_EBAD, "smt: interpolation needs two steps");
	}
	Z3_fixedpoint fp = NULL;
	Z3_params p = NULL;
	Z3_func_decl *preds = calloc((size_t)m + 1, sizeof *preds); // preds[m] is Err
	Z3_ast *heads = calloc((size_t)m + 1, sizeof *heads);
	Z3_sort *dom = NULL;
	Z3_app *bound = NULL;
	int32_t maxv = rule_off[n] + cut_off[m] + 1;
	dom = calloc((size_t)maxv, sizeof *dom);
	bound = calloc((size_t)maxv, sizeof *bound);
	if (!preds || !heads || !dom || !bound) {
		rc = fail_own(s, SHIM_ENOMEM, "out of memory");
		goto out;
	}
	for (int32_t i = 0; i < m; i++) {
		itps[i] = NULL;
	}
	for (int32_t i = 0; i < maxv; i++) {
		dom[i] = s->int_sort;
	}
	fp = Z3_mk_fixedpoint(c);
	if (!fp) {
		rc = fail(s, Z3_get_error_code(c));
		goto out;
	}
	Z3_fixedpoint_inc_ref(c, fp);
	p = Z3_mk_params(c);
	if (!p) {
		rc = fail(s, Z3_get_error_code(c));
		goto out;
	}
	Z3_params_inc_ref(c, p);
	Z3_params_set_symbol(c, p, Z3_mk_string_symbol(c, "engine"), Z3_mk_string_symbol(c, "spacer"));
	static const char *const off[] = {"xform.inline_linear", "xform.inline_eager", "xform.slice",
		"xform.compress_unbound", "xform.coi"};
	for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
		Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, off[i]), false);
	}
	Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
	if (opts && (rc = set_opts(s, p, opts)) != Z3_OK) goto out;
	Z3_fixedpoint_set_params(c, fp, p);
	if ((rc = ERRCODE(s)) != Z3_OK) goto out;

	for (int32_t i = 0; i <= m; i++) {
		char name[32];
		int32_t arity = i < m ? cut_off[i + 1] - cut_off[i] : 0;
		snprintf(name, sizeof name, i < m ? "P!%d" : "Err!", (int)i + 1);
		preds[i] = Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), (unsigned)arity, dom, s->bool_sort);
		if (!preds[i]) {
			rc = fail(s, Z3_get_error_code(c));
			goto out;
		}
		keep(s, Z3_func_decl_to_ast(c, preds[i]));
		Z3_fixedpoint_register_relation(c, fp, preds[i]);
		heads[i] = Z3_mk_app(c, preds[i], (unsigned)arity, i < m ? cut_vars + cut_off[i] : NULL);
		if (!heads[i]) {
			rc = fail(s, Z3_get_error_code(c));
			goto out;
		}
		keep(s, heads[i]);
	}
	if ((rc = ERRCODE(s)) != Z3_OK) goto out;

	for (int32_t i = 0; i < n; i++) {
		Z3_ast body = steps[i], impl = NULL, rule = NULL;
		keep(s, body);
		if (i > 0) {
			Z3_ast conj[2] = {heads[i - 1], steps[i]};
			Z3_ast b = Z3_mk_and(c, 2, conj);
			if (b) {
				keep(s, b);
			}
			drop(s, body);
			body = b;
		}
		if (body && (impl = Z3_mk_implies(c, body, heads[i < m ? i : m]))) {
			keep(s, impl);
			int32_t nb = rule_off[i + 1] - rule_off[i];
			for (int32_t j = 0; j < nb; j++) {
				bound[j] = Z3_to_app(c, rule_vars[rule_off[i] + j]);
			}
			rule = nb > 0 ? Z3_mk_forall_const(c, 0, (unsigned)nb, bound, 0, NULL, impl) : impl;
			if (rule) {
				keep(s, rule);
				Z3_fixedpoint_add_rule(c, fp, rule, Z3_mk_int_symbol(c, (int)i));
				rc = ERRCODE(s);
				drop(s, rule);
			}
		}
		if (!body || !impl || !rule) {
			rc = fail(s, Z3_get_error_code(c));
		}
		drop(s, body);
		drop(s, impl);
		if (rc != Z3_OK) goto out;
	}

	enter(s);
	Z3_lbool r = Z3_fixedpoint_query(c, fp, heads[m]);
	rc = ERRCODE(s);
	leave(s);
	if (rc != Z3_OK) {
		rc = SHIM_EGAVEUP; // e.g. "Stuck on a lemma", or canceled
		goto out;
	}
	*res = r;
	if (r == Z3_L_UNDEF) {
		Z3_string why = Z3_fixedpoint_get_reason_unknown(c, fp);
		snprintf(s->errmsg, sizeof s->errmsg, "%s", why ? why : "unknown");
	} else if (r == Z3_L_FALSE) {
		for (int32_t i = 0; i < m; i++) {
			Z3_ast cover = Z3_fixedpoint_get_cover_delta(c, fp, -1, preds[i]);
			if (!cover) {
				rc = fail(s, Z3_get_error_code(c));
				goto out;
			}
			keep(s, cover);
			Z3_ast sub = Z3_substitute_vars(c, cover, (unsigned)(cut_off[i + 1] - cut_off[i]),
				cut_vars + cut_off[i]);
			if (sub) {
				keep(s, sub);
				itps[i] = Z3_simplify(c, sub);
				if (itps[i]) {
					keep(s, itps[i]);
				}
			}
			if (!sub || !itps[i]) {
				rc = fail(s, Z3_get_error_code(c));
			}
			drop(s, cover);
			drop(s, sub);
			if (rc != Z3_OK) goto out;
		}
	}
out:
	if (rc != Z3_OK) {
		for (int32_t i = 0; i < m; i++) {
			drop(s, itps[i]);
			itps[i] = NULL;
		}
	}
	for (int32_t i = 0; preds && heads && i <= m; i++) {
		drop(s, heads[i]);
		if (preds[i]) {
			drop(s, Z3_func_decl_to_ast(c, preds[i]));
		}
	}
	if (p) {
		Z3_params_dec_ref(c, p);
	}
	if (fp) {
		Z3_fixedpoint_dec_ref(c, fp);
	}
	free(preds);
	free(heads);
	free(dom);
	free(bound);
	return rc;
}

int shim_bench_loop(shim_ctx *s, Z3_solver sv, const Z3_ast *negs, int32_t nneg,
	int64_t iters, int64_t *nsat) {
	Z3_context c = s->c;
	*nsat = 0;
	for (int64_t i = 0; i < iters; i++) {
		Z3_solver_push(c, sv);
		Z3_solver_assert(c, sv, negs[i % nneg]);
		Z3_lbool r = Z3_solver_check(c, sv);
		Z3_solver_pop(c, sv, 1);
		if (Z3_get_error_code(c) != Z3_OK) {
			return fail(s, Z3_get_error_code(c));
		}
		*nsat += r == Z3_L_TRUE;
	}
	return Z3_OK;
}
