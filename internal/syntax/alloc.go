package syntax

/*
#include <stddef.h>

extern void ts_set_allocator(
	void *(*new_malloc)(size_t),
	void *(*new_calloc)(size_t, size_t),
	void *(*new_realloc)(void *, size_t),
	void (*new_free)(void *));

static void hone_ts_default_allocator(void) { ts_set_allocator(NULL, NULL, NULL, NULL); }
*/
import "C"

// go-tree-sitter's init routes every allocation of the tree-sitter runtime
// through Go callbacks (so that SetAllocator can swap them), which costs a
// C->Go->C round trip per malloc and free: a third of the parse time. hone
// never swaps allocators, so this package (initialised after go-tree-sitter)
// puts back the C library's malloc, calloc, realloc and free. Memory the
// callbacks allocated came from the same C malloc, so freeing it later with
// free is sound.
func init() { C.hone_ts_default_allocator() }
