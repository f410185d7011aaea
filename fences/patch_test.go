package fences

import (
	"strings"
	"testing"

	"fencer/cs"
)

// at describes a hand-made site: the first occurrence of Text in the source
// at or after the first occurrence of After (if any).
type at struct {
	Text, After string
	Bare        bool
}

func makeSites(t *testing.T, src string, ats []at) []*cs.Site {
	t.Helper()
	var sites []*cs.Site
	for i, a := range ats {
		from := 0
		if a.After != "" {
			from = strings.Index(src, a.After)
			if from < 0 {
				t.Fatalf("no %q in source", a.After)
			}
		}
		j := strings.Index(src[from:], a.Text)
		if j < 0 || !strings.HasSuffix(a.Text, ";") {
			t.Fatalf("no statement %q in source", a.Text)
		}
		start := from + j
		sites = append(sites, &cs.Site{ID: i, Start: start, End: start + len(a.Text), Text: a.Text, BareBody: a.Bare})
	}
	return sites
}

func TestFenceEdits(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		sites []at
		want  string
	}{
		{
			name:  "own line",
			src:   "process P {\n  x = 1;\n  r = y;\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  x = 1;\n  fence;\n  r = y;\n}\n",
		},
		{
			name:  "tab indentation and trailing blanks",
			src:   "process P {\n\t\tx = 1;  \t\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n\t\tx = 1;  \t\n\t\tfence;\n}\n",
		},
		{
			name:  "trailing line comment stays",
			src:   "process P {\n  x = 1; // set x\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  x = 1; // set x\n  fence;\n}\n",
		},
		{
			name:  "trailing closed block comments stay",
			src:   "process P {\n  x = 1; /* a */ /* b */ // c\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  x = 1; /* a */ /* b */ // c\n  fence;\n}\n",
		},
		{
			name:  "block comment continuing on later lines",
			src:   "process P {\n  x = 1; /* a\n  b */\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  x = 1; fence; /* a\n  b */\n}\n",
		},
		{
			name:  "comment before the write",
			src:   "process P {\n  /* first */ x = 1;\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  /* first */ x = 1;\n  fence;\n}\n",
		},
		{
			name:  "end of a comment opened on an earlier line",
			src:   "process P {\n  /* a\n  b; c: */ x = 1;\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  /* a\n  b; c: */ x = 1;\n  fence;\n}\n",
		},
		{
			name:  "two statements on one line, both sites",
			src:   "process P {\n  x = 1; y = 2;\n}\n",
			sites: []at{{Text: "x = 1;"}, {Text: "y = 2;"}},
			want:  "process P {\n  x = 1; fence; y = 2; fence;\n}\n",
		},
		{
			name:  "statement before the write on its line",
			src:   "process P {\n  r = y; x = 1;\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  r = y; x = 1; fence;\n}\n",
		},
		{
			name:  "braces on the line",
			src:   "process P { x = 1; }\nprocess Q {\n  { y = 2; }\n}\n",
			sites: []at{{Text: "x = 1;"}, {Text: "y = 2;"}},
			want:  "process P { x = 1; fence; }\nprocess Q {\n  { y = 2; fence; }\n}\n",
		},
		{
			name:  "if without braces",
			src:   "process P {\n  if (c) x = 1;\n}\n",
			sites: []at{{Text: "x = 1;", Bare: true}},
			want:  "process P {\n  if (c) { x = 1; fence; }\n}\n",
		},
		{
			name:  "if else without braces",
			src:   "process P {\n  if (c) x = 1; else y = 2;\n}\n",
			sites: []at{{Text: "x = 1;", Bare: true}, {Text: "y = 2;", Bare: true}},
			want:  "process P {\n  if (c) { x = 1; fence; } else { y = 2; fence; }\n}\n",
		},
		{
			name:  "while body on the next line",
			src:   "process P {\n  while (c)\n    x = x + 1; // spin\n}\n",
			sites: []at{{Text: "x = x + 1;", Bare: true}},
			want:  "process P {\n  while (c)\n    { x = x + 1; fence; } // spin\n}\n",
		},
		{
			name:  "labeled write",
			src:   "process P {\n  L: x = 1;\n  M /* m */ : y = 2;\n}\n",
			sites: []at{{Text: "x = 1;"}, {Text: "y = 2;"}},
			want:  "process P {\n  L: x = 1;\n     fence;\n  M /* m */ : y = 2;\n  fence;\n}\n",
		},
		{
			name:  "not a label",
			src:   "process P {\n  skip; x = 1;\n}\n",
			sites: []at{{Text: "x = 1;"}},
			want:  "process P {\n  skip; x = 1; fence;\n}\n",
		},
		{
			name:  "write over several lines",
			src:   "process P {\n  x = 1 +\n      2; // three\n}\n",
			sites: []at{{Text: "x = 1 +\n      2;"}},
			want:  "process P {\n  x = 1 +\n      2; // three\n  fence;\n}\n",
		},
		{
			name:  "CRLF",
			src:   "process P {\r\n  x = 1;\r\n  y = 2; z = 3;\r\n}\r\n",
			sites: []at{{Text: "x = 1;"}, {Text: "y = 2;"}},
			want:  "process P {\r\n  x = 1;\r\n  fence;\r\n  y = 2; fence; z = 3;\r\n}\r\n",
		},
		{
			name:  "no trailing newline",
			src:   "process P {\n  x = 1; }\nprocess Q {\n  y = 2;",
			sites: []at{{Text: "x = 1;"}, {Text: "y = 2;"}},
			want:  "process P {\n  x = 1; fence; }\nprocess Q {\n  y = 2;\n  fence;",
		},
		{
			name:  "no trailing newline, CRLF, trailing comment",
			src:   "process Q {\r\n  y = 2; // end",
			sites: []at{{Text: "y = 2;"}},
			want:  "process Q {\r\n  y = 2; // end\r\n  fence;",
		},
		{
			name:  "already fenced",
			src:   "process P {\n  x = 1;\n  fence;\n  y = 2; fence;\n}\n",
			sites: []at{{Text: "x = 1;"}, {Text: "y = 2;"}},
			want:  "process P {\n  x = 1;\n  fence;\n  fence;\n  y = 2; fence; fence;\n}\n",
		},
		{
			name:  "site listed twice",
			src:   "process P {\n  x = 1;\n}\n",
			sites: []at{{Text: "x = 1;"}, {Text: "x = 1;"}},
			want:  "process P {\n  x = 1;\n  fence;\n}\n",
		},
		{
			name:  "sites out of order",
			src:   "process P {\n  x = 1;\n  y = 2;\n}\n",
			sites: []at{{Text: "y = 2;"}, {Text: "x = 1;"}},
			want:  "process P {\n  x = 1;\n  fence;\n  y = 2;\n  fence;\n}\n",
		},
		{
			name:  "no sites",
			src:   "process P {\n  x = 1;\n}\n",
			want:  "process P {\n  x = 1;\n}\n",
			sites: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := []byte(tt.src)
			sites := makeSites(t, tt.src, tt.sites)
			edits := FenceEdits(src, sites)
			got, err := Apply(src, edits)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			if string(src) != tt.src {
				t.Errorf("source modified")
			}
		})
	}
}

func TestFenceEditsPanicsOnForeignSite(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a site outside the source")
		}
	}()
	FenceEdits([]byte("x = 1;"), []*cs.Site{{Start: 3, End: 10}})
}

func TestApply(t *testing.T) {
	src := []byte("abcdef")
	tests := []struct {
		name  string
		edits []Edit
		want  string
		err   string
	}{
		{"none", nil, "abcdef", ""},
		{"insert at both ends", []Edit{{0, 0, "<"}, {6, 6, ">"}}, "<abcdef>", ""},
		{"replace and delete", []Edit{{1, 3, "X"}, {4, 5, ""}}, "aXdf", ""},
		{"two insertions at one offset in order", []Edit{{2, 2, "1"}, {2, 2, "2"}}, "ab12cdef", ""},
		{"insertion then replacement at one offset", []Edit{{2, 2, "1"}, {2, 4, "R"}}, "ab1Ref", ""},
		{"adjacent replacements", []Edit{{0, 2, "X"}, {2, 4, "Y"}}, "XYef", ""},
		{"overlap", []Edit{{0, 3, "X"}, {2, 4, "Y"}}, "", "overlaps"},
		{"replacement then insertion inside it", []Edit{{1, 4, "X"}, {2, 2, "Y"}}, "", "overlaps"},
		{"unsorted", []Edit{{4, 4, "X"}, {1, 1, "Y"}}, "", "not sorted"},
		{"past the end", []Edit{{5, 7, "X"}}, "", "outside"},
		{"negative", []Edit{{-1, 0, "X"}}, "", "outside"},
		{"reversed", []Edit{{3, 2, "X"}}, "", "outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply(src, tt.edits)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) || got != nil {
					t.Errorf("Apply = %q, %v; want error containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Errorf("Apply = %q, %v; want %q", got, err, tt.want)
			}
			if string(src) != "abcdef" {
				t.Errorf("source modified")
			}
		})
	}
}
