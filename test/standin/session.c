/* The GCI TEST STAND-IN's libgcits, part 1: sessions, the registry that makes a stale
 * GciSession pointer an error (4100) instead of a crash, errors, frames and gem processes.
 * This is NOT GemStone; see README.md. */
#define _GNU_SOURCE
#include "standin_internal.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* ---- errors ---------------------------------------------------------------------------- */

void err_clear(GciErrSType *err) {
    if (err == NULL) return;
    memset(err, 0, sizeof *err);
    err->category = OOP_NIL;
    err->context = OOP_NIL;
    err->exceptionObj = OOP_NIL;
    err->args[0] = OOP_ILLEGAL;
}

void err_set(GciErrSType *err, int number, const char *fmt, ...) {
    if (err == NULL) return;
    err_clear(err);
    err->category = OOP_GEMSTONE_ERROR_CAT;
    err->number = number;
    err->fatal = (number / 1000 == 4);
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof err->message - 40)
        strcat(err->message, " (GCI TEST STAND-IN, not GemStone)");
    snprintf(err->reason, sizeof err->reason, "stand-in error %d", number);
}

/* ---- the session registry ---------------------------------------------------------------- */

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static Session **registry;
static size_t registry_len, registry_cap;

static void session_free(Session *s) {
    exports_clear(s);
    free(s->exports);
    free(s->pending);
    if (s->fd >= 0) close(s->fd);
    if (s->login_pipe[0] >= 0) close(s->login_pipe[0]);
    if (s->login_pipe[1] >= 0) close(s->login_pipe[1]);
    login_params_free(&s->login);
    pthread_mutex_destroy(&s->call_lock);
    pthread_mutex_destroy(&s->write_lock);
    free(s);
}

Session *session_new(void) {
    Session *s = calloc(1, sizeof *s);
    if (s == NULL) return NULL;
    pthread_mutex_init(&s->call_lock, NULL);
    pthread_mutex_init(&s->write_lock, NULL);
    s->fd = -1;
    s->login_pipe[0] = s->login_pipe[1] = -1;
    s->next_oop = 0x10000000;
    atomic_store(&s->state, S_LOGGING_IN);
    return s;
}

/* session_register adds s with one reference held by the registry itself. */
int session_register(Session *s) {
    pthread_mutex_lock(&registry_lock);
    if (registry_len == registry_cap) {
        size_t cap = registry_cap ? registry_cap * 2 : 16;
        Session **grown = realloc(registry, cap * sizeof *grown);
        if (grown == NULL) {
            pthread_mutex_unlock(&registry_lock);
            return -1;
        }
        registry = grown;
        registry_cap = cap;
    }
    registry[registry_len++] = s;
    s->refs = 1;
    pthread_mutex_unlock(&registry_lock);
    return 0;
}

/* session_acquire answers the live session behind a GciSession pointer with a reference
 * taken, or NULL (and error 4100) when the pointer names no live session. */
Session *session_acquire(GciSession sess, GciErrSType *err) {
    Session *found = NULL;
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < registry_len; i++) {
        if (registry[i] == sess) {
            found = registry[i];
            found->refs++;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    if (found == NULL) err_set(err, 4100, "invalid session: the GciSession is not logged in");
    return found;
}

void session_release(Session *s) {
    int free_it = 0;
    pthread_mutex_lock(&registry_lock);
    free_it = (--s->refs == 0);
    pthread_mutex_unlock(&registry_lock);
    if (free_it) session_free(s);
}

/* session_unregister removes s from the registry (later acquires fail with 4100) and drops
 * the registry's reference. The caller still holds its own. */
void session_unregister(Session *s) {
    int found = 0;
    pthread_mutex_lock(&registry_lock);
    for (size_t i = 0; i < registry_len; i++) {
        if (registry[i] == s) {
            registry[i] = registry[--registry_len];
            found = 1;
            break;
        }
    }
    if (found) s->refs--;
    pthread_mutex_unlock(&registry_lock);
}

/* ---- socket I/O ---------------------------------------------------------------------------- */

static int write_all(int fd, const void *buf, size_t len) {
    const unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static int read_all(int fd, void *buf, size_t len) {
    unsigned char *p = buf;
    while (len > 0) {
        ssize_t n = read(fd, p, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (n == 0) return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* frame_send writes one frame; the write lock keeps a break from landing inside a call's
 * frame. */
int frame_send(Session *s, unsigned char type, const Buf *payload) {
    unsigned char hdr[FRAME_HEADER] = {type, 0, 0, 0, 0, 0, 0, 0};
    uint32_t len = payload ? (uint32_t)payload->len : 0;
    memcpy(hdr + 4, &len, 4); /* x86-64 and arm64 are little-endian, as the gem expects */
    pthread_mutex_lock(&s->write_lock);
    int rc = write_all(s->fd, hdr, sizeof hdr);
    if (rc == 0 && len > 0) rc = write_all(s->fd, payload->data, len);
    pthread_mutex_unlock(&s->write_lock);
    return rc;
}

/* frame_read reads one whole frame (blocking); the payload is malloc'd. */
int frame_read(int fd, unsigned char *type, unsigned char **payload, uint32_t *len) {
    unsigned char hdr[FRAME_HEADER];
    if (read_all(fd, hdr, sizeof hdr) != 0) return -1;
    memcpy(len, hdr + 4, 4);
    if (*len > MAX_FRAME) return -1;
    *type = hdr[0];
    *payload = malloc(*len ? *len : 1);
    if (*payload == NULL) return -1;
    if (read_all(fd, *payload, *len) != 0) {
        free(*payload);
        *payload = NULL;
        return -1;
    }
    return 0;
}

/* wait_readable polls fd for input for up to timeout_ms (-1: forever), across signals.
 * Answers 1 readable (or hung up), 0 timed out, -1 error. */
int wait_readable(int fd, int timeout_ms) {
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int left = timeout_ms;
        if (timeout_ms > 0) {
            struct timespec now;
            clock_gettime(CLOCK_MONOTONIC, &now);
            long spent = (now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000;
            left = spent >= timeout_ms ? 0 : timeout_ms - (int)spent;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int n = poll(&p, 1, left);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return -1;
        return n > 0 ? 1 : 0;
    }
}

/* peer_closed answers whether the gem's end of the socket is closed, without consuming data. */
int peer_closed(int fd) {
    if (wait_readable(fd, 0) != 1) return 0;
    unsigned char b;
    ssize_t n;
    do {
        n = recv(fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

/* ---- gem processes ------------------------------------------------------------------------- */

static void sleep_ms(long ms) {
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* reap_gem waits for pid, killing it if it has not exited within grace_ms, so no gem is left
 * a zombie. Answers the wait status, or -1 if the pid was not ours to wait for. */
int reap_gem(pid_t pid, long grace_ms) {
    int status = 0;
    for (long waited = 0;; waited++) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) return status;
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (waited >= grace_ms) break;
        sleep_ms(1);
    }
    kill(pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) return -1;
    }
    return status;
}

typedef struct {
    pid_t pid;
} ReapArg;

static void *reap_thread(void *arg) {
    ReapArg *r = arg;
    reap_gem(r->pid, 2000);
    free(r);
    return NULL;
}

/* reap_gem_later reaps on a thread of its own, for GciTsNbLogout, which does not wait. */
void reap_gem_later(pid_t pid) {
    ReapArg *r = malloc(sizeof *r);
    if (r != NULL) {
        r->pid = pid;
        if (HostCreateThread(reap_thread, r) == 0) return;
        free(r);
    }
    reap_gem(pid, 2000);
}

/* remove_session_entry removes a killed gem's session-directory entry if it still names it. */
void remove_session_entry(const char *dir, int gem_session, pid_t pid) {
    if (dir[0] == '\0' || gem_session <= 0) return;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%d", dir, gem_session);
    FILE *f = fopen(path, "r");
    if (f == NULL) return;
    long recorded = -1;
    int ok = fscanf(f, "%ld", &recorded) == 1;
    fclose(f);
    if (ok && recorded == (long)pid) unlink(path);
}

/* gem_died records that the gem is gone: it reaps the process and chooses the fatal error
 * the next call reports, 4137 (killed by a signal, as a network error) or 4148 (it exited:
 * EOF on the GCI connection). Caller holds call_lock. */
void gem_died(Session *s) {
    if (atomic_load(&s->state) != S_READY) return;
    int status = reap_gem(s->pid, 2000);
    s->death_number = (status != -1 && WIFSIGNALED(status)) ? 4137 : 4148;
    remove_session_entry(s->session_dir, s->gem_session, s->pid);
    s->pid = 0;
    atomic_store(&s->nb_running, 0);
    atomic_store(&s->state, S_DEAD);
}

/* report_dead fills err for a call on a session whose gem is gone: the first call after the
 * death gets 4137/4148, later ones 4100. All are fatal. */
void report_dead(Session *s, GciErrSType *err) {
    if (!s->death_reported) {
        s->death_reported = 1;
        if (s->death_number == 4137)
            err_set(err, 4137, "NetError: the stand-in gem (session %d) was killed; the GCI connection is gone",
                    s->gem_session);
        else
            err_set(err, 4148, "EOF on the GCI network connection: the stand-in gem (session %d) exited",
                    s->gem_session);
        return;
    }
    err_set(err, 4100, "invalid session: the stand-in gem of this session is gone");
}

static int gem_path(char *out, size_t size) {
    const char *env = getenv("GCI_STANDIN_GEM");
    if (env != NULL && env[0] != '\0') {
        snprintf(out, size, "%s", env);
        return 0;
    }
    Dl_info info;
    if (dladdr((void *)GciTsVersion, &info) == 0 || info.dli_fname == NULL) return -1;
    char lib[PATH_MAX - 32];
    snprintf(lib, sizeof lib, "%s", info.dli_fname);
    char *slash = strrchr(lib, '/');
    if (slash == NULL) snprintf(out, size, "../bin/standin-gem");
    else {
        *slash = '\0';
        snprintf(out, size, "%s/../bin/standin-gem", lib);
    }
    return 0;
}

void session_dir_path(char *out, size_t size) {
    const char *env = getenv("GCI_STANDIN_DIR");
    if (env != NULL && env[0] != '\0') {
        snprintf(out, size, "%s", env);
        return;
    }
    const char *tmp = getenv("TMPDIR");
    if (tmp == NULL || tmp[0] == '\0') tmp = "/tmp";
    snprintf(out, size, "%s/gci-standin-%u/sessions", tmp, (unsigned)getuid());
}

/* spawn_gem starts one gem process with its end of a fresh socketpair as fd 3. */
static int spawn_gem(Session *s, GciErrSType *err) {
    char path[PATH_MAX];
    if (gem_path(path, sizeof path) != 0) {
        err_set(err, 4042, "cannot locate the stand-in gem program (set GCI_STANDIN_GEM)");
        return -1;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        err_set(err, 4042, "cannot create the stand-in gem's socket: %s", strerror(errno));
        return -1;
    }
    int child_end = sv[1];
    if (child_end == GEM_FD) { /* dup2 onto itself would keep close-on-exec set */
        child_end = fcntl(sv[1], F_DUPFD_CLOEXEC, GEM_FD + 1);
        close(sv[1]);
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, child_end, GEM_FD);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    posix_spawn_file_actions_addclosefrom_np(&fa, GEM_FD + 1);
#endif
    posix_spawnattr_init(&attr);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGTERM);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGHUP);
    sigaddset(&defaults, SIGCHLD);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    char *argv[] = {path, NULL};
    pid_t pid;
    int rc = posix_spawn(&pid, path, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(child_end);
    if (rc != 0) {
        close(sv[0]);
        err_set(err, 4042, "cannot start the stand-in gem %s: %s", path, strerror(rc));
        return -1;
    }
    s->fd = sv[0];
    s->pid = pid;
    return 0;
}

static void buf_put_string(Buf *b, const char *str) {
    const char *v = str ? str : "";
    uint32_t n = (uint32_t)strlen(v);
    buf_put(b, &n, 4);
    buf_put(b, v, n);
}

/* login_run is one whole login: spawn the gem, send the login frame, wait for its hello.
 * It takes no global lock, so other sessions' calls go on meanwhile. Answers 0 or -1. */
int login_run(Session *s, GciErrSType *err) {
    LoginParams *p = &s->login;
    if (p->flags & GCI_LOGIN_IS_SUBORDINATE) {
        err_set(err, 4147, "ERR_IN_LOGIN: GCI_LOGIN_IS_SUBORDINATE is not allowed");
        return -1;
    }
    session_dir_path(s->session_dir, sizeof s->session_dir);
    if (spawn_gem(s, err) != 0) return -1;

    Buf b = {0};
    char flags[16];
    snprintf(flags, sizeof flags, "%u", p->flags);
    uint32_t count = 7;
    buf_put(&b, &count, 4);
    buf_put_string(&b, p->stone ? p->stone : "gs64stone");
    buf_put_string(&b, p->gem ? p->gem : "!@localhost!gemnetobject");
    buf_put_string(&b, p->user);
    buf_put_string(&b, p->password);
    buf_put_string(&b, p->host_user);
    buf_put_string(&b, flags);
    buf_put_string(&b, s->session_dir);
    int sent = b.failed ? -1 : frame_send(s, FRAME_LOGIN, &b);
    explicit_bzero(b.data, b.len); /* the frame held the password */
    free(b.data);

    unsigned char type = 0, *payload = NULL;
    uint32_t len = 0;
    int ready = sent == 0 ? wait_readable(s->fd, LOGIN_TIMEOUT_MS) : -1;
    if (ready == 1 && frame_read(s->fd, &type, &payload, &len) == 0 && type == FRAME_HELLO && len >= 8) {
        int32_t session;
        memcpy(&session, payload, 4);
        s->gem_session = session;
        free(payload);
        return 0;
    }
    if (payload != NULL && type == FRAME_ERROR) gem_error_fill(payload, len, err);
    else if (ready == 0) err_set(err, 4042, "the stand-in gem did not answer its login within %d ms", LOGIN_TIMEOUT_MS);
    else err_set(err, 4042, "the stand-in gem ended during login");
    free(payload);
    close(s->fd);
    s->fd = -1;
    reap_gem(s->pid, 2000);
    s->pid = 0;
    return -1;
}

/* gem_error_fill turns an error frame (uint32 number, uint8 flags, uint32 length, text) into
 * a GciErrSType. Answers the frame's flags. */
int gem_error_fill(const unsigned char *payload, uint32_t len, GciErrSType *err) {
    if (len < 9) {
        err_set(err, 4102, "malformed error frame from the stand-in gem");
        return 0;
    }
    uint32_t number, mlen;
    memcpy(&number, payload, 4);
    unsigned char flags = payload[4];
    memcpy(&mlen, payload + 5, 4);
    if (mlen > len - 9) mlen = len - 9;
    if (err == NULL) return flags;
    err_clear(err);
    err->category = OOP_GEMSTONE_ERROR_CAT;
    err->number = (int)number;
    err->fatal = (flags & ERRF_FATAL) || number / 1000 == 4;
    size_t n = mlen < GCI_ERR_STR_SIZE ? mlen : GCI_ERR_STR_SIZE;
    memcpy(err->message, payload + 9, n);
    err->message[n] = '\0';
    snprintf(err->reason, sizeof err->reason, "stand-in error %u", number);
    return flags;
}

void login_params_free(LoginParams *p) {
    free(p->stone);
    free(p->gem);
    free(p->user);
    if (p->password != NULL) {
        explicit_bzero(p->password, strlen(p->password));
        free(p->password);
    }
    free(p->host_user);
    memset(p, 0, sizeof *p);
}

/* ---- growable buffers ---------------------------------------------------------------------- */

void buf_put(Buf *b, const void *data, size_t n) {
    if (b->failed) return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        unsigned char *grown = realloc(b->data, cap);
        if (grown == NULL) {
            b->failed = 1;
            return;
        }
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->len, data, n);
    b->len += n;
}
