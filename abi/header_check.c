/* actk.h compiles on its own as C99 and C11 with -Wall -Wextra -pedantic
 * -Werror, and its ABI is what abi/header_check.h pins. Linked with the shared
 * library: every declaration resolves. */
#include <actk.h>

#include "header_check.h"

#include <stdio.h>

int main(void) {
  int n = abi_check_signatures();
  if (n != ABI_SYMBOL_COUNT) {
    fprintf(stderr,
            "abi/header_check.h checks %d function signatures, abi/actk.symbols lists %d "
            "symbols: an op of src/ops.toml is pinned by python3 tools/gen_ops.py "
            "(abi/signatures.gen.h); any other new function by an ABI_SIG line in "
            "abi/header_check.h\n",
            n, ABI_SYMBOL_COUNT);
    return 1;
  }
  printf("actk.h as C %ld: %d signatures, enum values and layouts as pinned\n",
         (long)__STDC_VERSION__, n);
  return 0;
}
