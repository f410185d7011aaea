package cfront

import "testing"

// EditFences after Parse reuses Parse's translation (its memo): the C file
// is preprocessed and translated once per insert, whatever its name.
func TestEditFencesReusesParse(t *testing.T) {
	src := []byte("#include <pthread.h>\nint x, y;\nvoid *t(void *a) { x = 1; y = 2; return 0; }\n" +
		"int main(void) { pthread_t a; pthread_create(&a, 0, t, 0); return 0; }\n")
	sys, err := Reader{}.Parse("memo.c", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (Reader{}).EditFences(src, sys.WriteSites()[:1], nil, nil); err != nil {
		t.Fatal(err)
	}
	lastRead.Lock()
	name := lastRead.file.Name
	lastRead.Unlock()
	if name != "memo.c" {
		t.Errorf("EditFences read the file again (as %q)", name)
	}
}
