/* Structs that carry struct_size (actk_pool_config, actk_rope_desc) may grow
 * in later versions. A caller compiled against an older header passes a
 * smaller size: read that much and keep defaults for the rest. A newer
 * caller passes a larger one: fine if the fields we do not know are zero. */
#ifndef ACTK_VERSIONED_H
#define ACTK_VERSIONED_H

#include <stddef.h>
#include <string.h>

/* The sizes of the first published versions (LP64: 24 and 72 bytes). */
#define ACTK_POOL_CONFIG_V1_SIZE (sizeof(size_t) + 3 * sizeof(unsigned) + sizeof(int))
#define ACTK_ROPE_DESC_V1_SIZE (sizeof(actk_rope_desc))

/* Copies min(size, ours) bytes of src over dst (which holds defaults).
 * 0 if size is below the first version's or unknown trailing bytes are set. */
static inline int actk_read_versioned(void *dst, size_t ours, const void *src, size_t size,
                                      size_t v1) {
  if (size < v1) return 0;
  for (size_t i = ours; i < size; i++)
    if (((const unsigned char *)src)[i]) return 0;
  memcpy(dst, src, size < ours ? size : ours);
  return 1;
}

#endif
