#include "pool.h"
#include <stdio.h>
#define MAX 3
struct pool { int n; };
typedef struct pool pool_t;
int pool_get(int n) { return helper(n); }
