/* Internals of the GCI TEST STAND-IN's libgcits, shared by its .c files. */
#ifndef STANDIN_INTERNAL_H
#define STANDIN_INTERNAL_H

#include "gcits_standin.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>

#define GCI_EXPORT __attribute__((visibility("default")))

/* Frames (README.md): uint8 type, 3 zero bytes, uint32 little-endian payload length. */
#define FRAME_HEADER 8
#define MAX_FRAME (1u << 30)
#define FRAME_LOGIN 'L'
#define FRAME_PERFORM 'P'
#define FRAME_EXECUTE 'E'
#define FRAME_BREAK 'B'
#define FRAME_QUIT 'Q'
#define FRAME_HELLO 'H'
#define FRAME_RESULT 'R'
#define FRAME_ERROR 'X'
#define KIND_BYTES 0
#define KIND_SPECIAL 1
#define ERRF_FATAL 1
#define ERRF_HAS_CONTEXT 2

#define GEM_FD 3
#define LOGIN_TIMEOUT_MS 10000

enum { S_LOGGING_IN, S_READY, S_DEAD, S_LOGIN_FAILED };

typedef struct {
    unsigned char *data;
    size_t len, cap;
    int failed;
} Buf;

typedef struct {
    OopType oop;
    OopType cls;
    unsigned char *mem;         /* what to free: a result frame's payload, or a copy */
    const unsigned char *bytes; /* the object's bytes, inside mem */
    size_t len;
} Export;

typedef struct {
    char *stone, *gem, *user, *password, *host_user;
    unsigned flags;
} LoginParams;

typedef struct Session {
    /* Held for the length of every call except GciTsBreak (and the read-only
     * GciTsCallInProgress): a second thread is refused, never queued. */
    pthread_mutex_t call_lock;
    /* Held while a frame is written, so a break never lands inside a call's frame. */
    pthread_mutex_t write_lock;
    int fd;
    pid_t pid;
    int gem_session;
    atomic_int state;
    atomic_int nb_running;    /* an NB call was started and its result not collected */
    atomic_int hard_broken;   /* a hard break was sent to the running call */
    int death_number;         /* 4137 or 4148 once the gem is gone */
    int death_reported;
    char session_dir[PATH_MAX];

    /* NbLogin */
    LoginParams login;
    int login_pipe[2];
    GciErrSType login_err;
    int exec_session_init;

    /* a result frame read by GciTsNbPoll, waiting for GciTsNbResult */
    unsigned char pending_type;
    unsigned char *pending;
    uint32_t pending_len;
    int have_pending;

    Export *exports;
    size_t nexports, cap_exports;
    OopType next_oop;

    int refs; /* guarded by the registry lock */
} Session;

void err_clear(GciErrSType *err);
void err_set(GciErrSType *err, int number, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

Session *session_new(void);
int session_register(Session *s);
Session *session_acquire(GciSession sess, GciErrSType *err);
void session_release(Session *s);
void session_unregister(Session *s);

int frame_send(Session *s, unsigned char type, const Buf *payload);
int frame_read(int fd, unsigned char *type, unsigned char **payload, uint32_t *len);
int wait_readable(int fd, int timeout_ms);
int peer_closed(int fd);

int reap_gem(pid_t pid, long grace_ms);
void reap_gem_later(pid_t pid);
void remove_session_entry(const char *dir, int gem_session, pid_t pid);
void gem_died(Session *s);
void report_dead(Session *s, GciErrSType *err);
void session_dir_path(char *out, size_t size);
int login_run(Session *s, GciErrSType *err);
int gem_error_fill(const unsigned char *payload, uint32_t len, GciErrSType *err);
void login_params_free(LoginParams *p);

void buf_put(Buf *b, const void *data, size_t n);

void exports_clear(Session *s);
OopType export_add(Session *s, OopType cls, unsigned char *mem, const unsigned char *bytes, size_t len);
Export *export_find(Session *s, OopType oop);

#endif
