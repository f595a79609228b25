#define _GNU_SOURCE
#include "CAppFlipSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <pthread.h>
#endif

int appflip_become_subreaper(void) {
#ifdef __linux__
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -errno;
#else
    return -ENOSYS;
#endif
}

int appflip_is_subreaper(void) {
#ifdef __linux__
    int value = 0;
    return prctl(PR_GET_CHILD_SUBREAPER, &value, 0, 0, 0) == 0 ? (value != 0) : -errno;
#else
    return -ENOSYS;
#endif
}

#ifdef __linux__
/// Moves `fd` onto `target` for the child; a descriptor already there only loses close-on-exec.
static int place(int fd, int target) {
    if (fd == target) {
        int flags = fcntl(fd, F_GETFD);
        return flags < 0 ? -1 : fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    return dup2(fd, target) < 0 ? -1 : 0;
}

/// The child's side, between vfork and exec: system calls only, no allocation, nothing written that the parent
/// reads. Never returns.
static void become(const char *path, char *const argv[], char *const envp[], int in, int out, int err,
                   int death_signal, pid_t parent, int report) {
    int failure = 0;
    if (death_signal != 0) {
        if (prctl(PR_SET_PDEATHSIG, death_signal, 0, 0, 0) != 0) failure = errno;
        // The parent may have died before the call: then no signal will come.
        else if (getppid() != parent) _exit(127);
    }
    // A session of its own (and so a process group of its own, led by the child): no controlling terminal, so a
    // handler cannot open /dev/tty to paint a verdict or retitle the window; its streams are the suite's pipes.
    if (failure == 0 && setsid() < 0) failure = errno;
    // Standard streams: in, out, err may themselves sit on 0..2, so lift any such to a higher number first.
    int fds[3] = {in, out, err};
    for (int i = 0; failure == 0 && i < 3; i++) {
        if (fds[i] < 3 && fds[i] != i) {
            int lifted = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
            if (lifted < 0) failure = errno; else fds[i] = lifted;
        }
    }
    for (int i = 0; failure == 0 && i < 3; i++) {
        if (place(fds[i], i) != 0) failure = errno;
    }
    if (failure == 0) {
        // Nothing but the three streams: a descriptor the suite opened without close-on-exec (or inherited from
        // whoever started it) must not keep a pipe of the suite's caller open for as long as a daemon lives.
#ifdef SYS_close_range
        if (syscall(SYS_close_range, 3U, ~0U, 0U) != 0)
#endif
        {
            struct rlimit limit;
            long last = (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) ? (long)limit.rlim_cur : 65536;
            if (last > 1L << 20) last = 1L << 20;
            for (long fd = 3; fd < last; fd++) (void)close((int)fd);
        }
        struct sigaction defaults;
        defaults.sa_handler = SIG_DFL;
        defaults.sa_flags = 0;
        sigemptyset(&defaults.sa_mask);
        for (int number = 1; number < NSIG; number++) {
            if (number != SIGKILL && number != SIGSTOP) (void)sigaction(number, &defaults, NULL);
        }
        sigset_t none;
        sigemptyset(&none);
        (void)sigprocmask(SIG_SETMASK, &none, NULL);
        execve(path, argv, envp);
        failure = errno;
    }
    ssize_t written;
    do { written = write(report, &failure, sizeof failure); } while (written < 0 && errno == EINTR);
    _exit(127);
}
#endif

pid_t appflip_spawn(const char *path, char *const argv[], char *const envp[],
                    int stdin_fd, int stdout_fd, int stderr_fd, int death_signal) {
#ifdef __linux__
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return -errno;
    // No handler of this process may run in the child before exec: block every signal across the fork; the child
    // resets dispositions and unblocks before exec.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t parent = getpid();
    // vfork: the child shares the parent's memory until it execs, so no page tables are copied; the child makes
    // system calls only, writes nothing the parent reads, and never returns from become() (exec or _exit).
    pid_t pid = vfork();
    if (pid == 0) become(path, argv, envp, stdin_fd, stdout_fd, stderr_fd, death_signal, parent, report[1]);
    int forkError = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (pid < 0) {
        close(report[0]);
        return -forkError;
    }
    // vfork returns here only once the child has exec'd (or failed): its session, and its group, already exist.
    int childError = 0;
    ssize_t got;
    do { got = read(report[0], &childError, sizeof childError); } while (got < 0 && errno == EINTR);
    close(report[0]);
    if (got == (ssize_t)sizeof childError) {
        int status;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        return -(childError != 0 ? childError : ECHILD);
    }
    return pid;
#else
    (void)path; (void)argv; (void)envp; (void)stdin_fd; (void)stdout_fd; (void)stderr_fd; (void)death_signal;
    return -ENOSYS;
#endif
}
