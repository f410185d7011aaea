package formats

import (
	"context"

	"fencer/cfront"
	"fencer/cs"
	"fencer/races"
)

// C programs (package cfront, ../shared/C-INPUT.md): the preprocessor
// defines, the fence style and the target (the mapping of C11 atomics,
// set from the memory model: Target) are options of the reader, which the
// cfront.Reader in the System carries (it writes the fences back and
// gives traces the syntax tree with the same defines and target).
func init() {
	Register(&Format{
		Name:       "c",
		Doc:        "C11 with pthreads",
		Extensions: []string{".c", ".i"},
		Parse: func(filename string, src []byte, opt Options) (*cs.System, []Warning, error) {
			sys, err := cReader(opt).Parse(filename, src)
			if err != nil {
				return nil, nil, err
			}
			var ws []Warning
			for _, w := range sys.Warnings {
				ws = append(ws, Warning{Pos: w.Pos, Msg: w.Msg})
			}
			return sys, ws, nil
		},
		Program: func(filename string, src []byte, opt Options) (*cs.Program, error) {
			return cReader(opt).Program(filename, src)
		},
		Races: func(ctx context.Context, sys *cs.System, opt Options) ([]Warning, string, error) {
			rc, err := cReader(opt).Races(ctx, sys.File.Name, sys.File.Src, races.Limits{})
			if err != nil {
				return nil, "", err
			}
			var ws []Warning
			for i, w := range rc.Warnings {
				ws = append(ws, Warning{Pos: w.Pos, Msg: w.Msg})
				if i < len(rc.Entries) {
					ws[i].Race = &rc.Entries[i]
				}
			}
			return ws, rc.Note, nil
		},
		Text:          TextLine,
		FenceKinds:    readerKinds(cfront.Reader{}),
		RemovesFences: readerRemoves(cfront.Reader{}),
		NoStoreFence:  readerNoStore(cfront.Reader{}),
		Expect:        Comment{Open: "//"},
		Options: []Option{
			Define,
			{Name: "fence-style", Values: []string{string(cfront.StyleC11), string(cfront.StyleGCC), string(cfront.StyleAsm)},
				Usage: "C input: how an inserted fence is written: c11 (atomic_thread_fence), gcc (__sync_synchronize) or asm (mfence)"},
		},
	})
}

// Target is the key of the Options of a C file that names the target
// whose mapping of C11 atomics it is read with (cfront.Target): "arm",
// "riscv" or "rmo", the name of the axiomatic memory model it is analysed
// under; absent or "" for the store-buffer mapping of every other model.
// It is not a flag (no Option declares it): the command that reads the
// file sets it from --model, opt[formats.Target] =
// []string{string(cfront.TargetOf(model))}.
const Target = "target"

// CutOutOfBounds is the key of the Options of a C file that, set to
// "true", makes an array index out of bounds end the run instead of
// failing an assertion (cfront.Reader.CutOutOfBounds). Like Target it is
// not a flag: fencer verify TASK.yml sets it for its second reading.
const CutOutOfBounds = "cut-out-of-bounds"

// SplitAtomic is the key of the Options of a C file that, set to "true",
// lets large atomic sections run as steps under a lock
// (cfront.Reader.SplitAtomic): the same reachable errors under SC only.
// fencer verify TASK.yml sets it.
const SplitAtomic = "split-atomic"

// Approximate is the key of the Options of a C file that, set to "true",
// computes the operations fencer cannot say as any integer
// (cfront.Reader.Approximate): then only a correct verdict holds. fencer
// verify TASK.yml sets it.
const Approximate = "approximate"

// cReader is the C reader of the options.
func cReader(opt Options) cfront.Reader {
	return cfront.Reader{Defines: opt["define"], Style: cfront.Style(opt.Get("fence-style")), Target: cfront.Target(opt.Get(Target)),
		CutOutOfBounds: opt.Get(CutOutOfBounds) == "true", SplitAtomic: opt.Get(SplitAtomic) == "true", Approximate: opt.Get(Approximate) == "true"}
}
