#include "pool.h"
#include <stdio.h>
#define MAX 3
struct pool { int n; };
typedef struct pool pool_t;
int pool_get(int n) { return helper(n); }
int pool_put(int n);
static char *pool_name(pool_t *p);
char *pool_name(pool_t *p) { return 0; }
