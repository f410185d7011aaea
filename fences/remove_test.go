package fences

import (
	"testing"

	"fencer/cs"
)

// RemoveEdits finds labels and comments with cs's scanner: a labelled fence
// becomes skip; even when a comment stands between the label and the fence
// (the label must not move to the next statement), and a fence followed by
// a comment on its line loses only itself.
func TestRemoveEditsLabelsAndComments(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{
			src:  "shared x;\nprocess P {\n  x = 1;\nL: /* was: mfence */ fence;\n  x = 2;\n}\n",
			want: "shared x;\nprocess P {\n  x = 1;\nL: /* was: mfence */ skip;\n  x = 2;\n}\n",
		},
		{
			src:  "shared x;\nprocess P {\n  x = 1;\nL: // the label's comment\n  fence;\n  x = 2;\n}\n",
			want: "shared x;\nprocess P {\n  x = 1;\nL: // the label's comment\n  skip;\n  x = 2;\n}\n",
		},
		{
			src:  "shared x;\nprocess P {\n  x = 1; /* a: */ fence;\n  x = 2;\n}\n",
			want: "shared x;\nprocess P {\n  x = 1; /* a: */\n  x = 2;\n}\n",
		},
	} {
		sys, err := cs.ParseWith("t.cs", []byte(tc.src), cs.Options{Reconsider: true})
		if err != nil {
			t.Fatal(err)
		}
		var fenced []*cs.Site
		for _, s := range sys.Sites {
			if s.Fence {
				fenced = append(fenced, s)
			}
		}
		if len(fenced) != 1 {
			t.Fatalf("%d fence sites in\n%s", len(fenced), tc.src)
		}
		out, err := Apply([]byte(tc.src), RemoveEdits([]byte(tc.src), fenced))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tc.want {
			t.Errorf("removing the fence of\n%s\ngives\n%s\nwant\n%s", tc.src, out, tc.want)
		}
	}
}
