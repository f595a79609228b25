#define _GNU_SOURCE
#include "CAppFlipSystem.h"

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#endif

int appflip_release_free_memory(void) {
#if defined(__linux__) && defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
