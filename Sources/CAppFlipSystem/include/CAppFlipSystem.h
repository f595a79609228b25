// The process calls Swift cannot make itself: prctl(2) is variadic, and what a child does between fork and exec
// must be plain C (only async-signal-safe calls). Linux only; elsewhere each call reports ENOSYS.
#ifndef CAPPFLIPSYSTEM_H
#define CAPPFLIPSYSTEM_H

#include <sys/types.h>

/// Makes this process a child subreaper: orphaned descendants are re-parented to it rather than to init, so the
/// suite can find and end a daemon that cleared its environment. 0, or -errno.
int appflip_become_subreaper(void);

/// Whether this process is a child subreaper (1), is not (0), or cannot tell (-errno).
int appflip_is_subreaper(void);

/// Starts `path` in a new process group with the three descriptors as its standard streams (and no other
/// descriptor open), every signal at its
/// default disposition and none blocked; on Linux the child also gets `death_signal` (when non-zero) as its
/// parent-death signal, so it dies with the thread that started it (and so with the process). Returns the pid, or -errno (exec failures
/// included: they are reported back through a close-on-exec pipe).
pid_t appflip_spawn(const char *path, char *const argv[], char *const envp[],
                    int stdin_fd, int stdout_fd, int stderr_fd, int death_signal);

/// Gives the free memory the allocator holds back to the system (glibc's malloc_trim: free pages of every arena),
/// between the phases of a run, so what one phase freed does not stay resident through the next. 1 when memory was
/// released, 0 when none was (or the platform's allocator has no such call).
int appflip_release_free_memory(void);

#endif
