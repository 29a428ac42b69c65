/* The GCI TEST STAND-IN's libgcits, part 2: the exported GciTs* functions. This is NOT
 * GemStone; see README.md for what each call does here and how it mirrors the real one. */
#define _GNU_SOURCE
#include "standin_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define STANDIN_VERSION_STRING "3.7.5 build standin (GCI TEST STAND-IN -- NOT GEMSTONE)"
#define ENCRYPTED_PREFIX "standin-encrypted:"

#define SMALLINT_MIN (-(INT64_C(1) << 60))
#define SMALLINT_MAX ((INT64_C(1) << 60) - 1)

static int is_special(OopType oop) { return (oop & 7) != 0 && !(oop & 1); }

/* ---- classes the stand-in resolves by name -------------------------------------------------- */

typedef struct {
    const char *name;
    OopType oop;
} ClassName;

/* Kernel classes carry GemStone's own OOPs; the others are the stand-in's (odd, like a
 * disk OOP, and distinct from every OOP of gci-ts.md section 4). */
static const ClassName kernel_classes[] = {
    {"McpServer", 0xF00001},
    {"System", 0xF00101},
    {"String", OOP_CLASS_STRING},
    {"Utf8", OOP_CLASS_Utf8},
    {"ByteArray", OOP_CLASS_BYTE_ARRAY},
    {"Symbol", OOP_CLASS_SYMBOL},
    {"SmallInteger", OOP_CLASS_SMALL_INTEGER},
    {"LargeInteger", OOP_CLASS_LargeInteger},
    {"Unicode7", OOP_CLASS_Unicode7},
    {"GsProcess", OOP_CLASS_GSPROCESS},
};
#define EXTRA_CLASS_BASE 0xF10001
#define EXTRA_CLASS_STEP 0x100
#define MAX_CLASS_NAME 256

/* extra_class walks GCI_STANDIN_CLASSES (comma-separated names a test adds, e.g. a worker
 * subclass) for a name or an OOP; answers 1 if found, filling the other. */
static int extra_class(const char *name, size_t name_len, OopType *oop, char *name_out) {
    const char *list = getenv("GCI_STANDIN_CLASSES");
    if (list == NULL) return 0;
    OopType next = EXTRA_CLASS_BASE;
    for (const char *p = list; *p != '\0'; next += EXTRA_CLASS_STEP) {
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > 0 && n < MAX_CLASS_NAME) {
            if (name != NULL && n == name_len && memcmp(p, name, n) == 0) {
                *oop = next;
                return 1;
            }
            if (name == NULL && *oop == next) {
                memcpy(name_out, p, n);
                name_out[n] = '\0';
                return 1;
            }
        }
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

static OopType class_named(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof kernel_classes / sizeof kernel_classes[0]; i++) {
        if (strlen(kernel_classes[i].name) == len && memcmp(kernel_classes[i].name, name, len) == 0)
            return kernel_classes[i].oop;
    }
    OopType oop;
    if (extra_class(name, len, &oop, NULL)) return oop;
    return OOP_ILLEGAL;
}

/* class_name_of fills out (MAX_CLASS_NAME bytes) with the name of a class OOP; 0 if none. */
static int class_name_of(OopType oop, char *out) {
    for (size_t i = 0; i < sizeof kernel_classes / sizeof kernel_classes[0]; i++) {
        if (kernel_classes[i].oop == oop) {
            snprintf(out, MAX_CLASS_NAME, "%s", kernel_classes[i].name);
            return 1;
        }
    }
    return extra_class(NULL, 0, &oop, out);
}

/* ---- the export table ------------------------------------------------------------------------ */

OopType export_add(Session *s, OopType cls, unsigned char *mem, const unsigned char *bytes, size_t len) {
    if (s->nexports == s->cap_exports) {
        size_t cap = s->cap_exports ? s->cap_exports * 2 : 32;
        Export *grown = realloc(s->exports, cap * sizeof *grown);
        if (grown == NULL) return OOP_ILLEGAL;
        s->exports = grown;
        s->cap_exports = cap;
    }
    OopType oop = s->next_oop;
    s->next_oop += 8; /* tag 0: an ordinary object OOP */
    s->exports[s->nexports++] = (Export){oop, cls, mem, bytes, len};
    return oop;
}

Export *export_find(Session *s, OopType oop) {
    for (size_t i = s->nexports; i > 0; i--) {
        if (s->exports[i - 1].oop == oop) return &s->exports[i - 1];
    }
    return NULL;
}

static int export_remove(Session *s, OopType oop) {
    Export *e = export_find(s, oop);
    if (e == NULL) return 0;
    free(e->mem);
    *e = s->exports[--s->nexports];
    return 1;
}

void exports_clear(Session *s) {
    for (size_t i = 0; i < s->nexports; i++) free(s->exports[i].mem);
    s->nexports = 0;
}

/* export_copy exports a byte object holding a copy of bytes. */
static OopType export_copy(Session *s, OopType cls, const void *bytes, size_t len, GciErrSType *err) {
    unsigned char *mem = malloc(len ? len : 1);
    if (mem == NULL) {
        err_set(err, 4067, "the stand-in ran out of memory for a %zu byte object", len);
        return OOP_ILLEGAL;
    }
    if (len) memcpy(mem, bytes, len);
    OopType oop = export_add(s, cls, mem, mem, len);
    if (oop == OOP_ILLEGAL) {
        free(mem);
        err_set(err, 4067, "the stand-in ran out of memory for its export table");
    }
    return oop;
}

/* ---- the shape of every session call -------------------------------------------------------- */

/* begin_call finds the session and takes its call lock; a second thread is refused (2203),
 * never queued. With need_idle, it also refuses while an NB call is outstanding and notices a
 * gem that died since the last call. Answers NULL with err set on refusal. */
static Session *begin_call(GciSession sess, GciErrSType *err, int need_idle) {
    err_clear(err);
    Session *s = session_acquire(sess, err);
    if (s == NULL) return NULL;
    if (pthread_mutex_trylock(&s->call_lock) != 0) {
        err_set(err, 2203, "the session has a call in progress by another C thread");
        session_release(s);
        return NULL;
    }
    int state = atomic_load(&s->state);
    if (state == S_LOGGING_IN || state == S_LOGIN_FAILED) {
        err_set(err, 2203, "the session's GciTsNbLogin has not finished (see GciTsNbLoginFinished)");
    } else if (state == S_DEAD) {
        report_dead(s, err);
    } else if (need_idle && atomic_load(&s->nb_running)) {
        err_set(err, 2203, "the session has a GciTsNb operation in progress");
    } else if (need_idle && peer_closed(s->fd)) {
        gem_died(s);
        report_dead(s, err);
    } else {
        return s;
    }
    pthread_mutex_unlock(&s->call_lock);
    session_release(s);
    return NULL;
}

static void end_call(Session *s) {
    pthread_mutex_unlock(&s->call_lock);
    session_release(s);
}

/* ---- version, login, logout ------------------------------------------------------------------ */

GCI_EXPORT unsigned GciTsVersion(char *buf, size_t bufSize) {
    if (buf != NULL && bufSize > 0) snprintf(buf, bufSize, "%s", STANDIN_VERSION_STRING);
    return 3;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static void copy_login(LoginParams *p, const char *stone, const char *gem, const char *user,
                       const char *password, const char *host_user, unsigned flags) {
    p->stone = dup_or_null(stone);
    p->gem = dup_or_null(gem);
    p->user = dup_or_null(user);
    p->password = dup_or_null(password);
    p->host_user = dup_or_null(host_user);
    p->flags = flags;
}

GCI_EXPORT GciSession GciTsLogin(const char *stoneNrs, const char *hostUserId, const char *hostPassword,
                                 BoolType hostPwIsEncrypted, const char *gemServiceNrs, const char *gsUser,
                                 const char *gsPassword, unsigned int loginFlags, int haltOnErrNum,
                                 BoolType *executedSessionInit, GciErrSType *err) {
    (void)hostPassword, (void)hostPwIsEncrypted, (void)haltOnErrNum;
    err_clear(err);
    Session *s = session_new();
    if (s == NULL) {
        err_set(err, 4042, "the stand-in could not allocate a session");
        return NULL;
    }
    copy_login(&s->login, stoneNrs, gemServiceNrs, gsUser, gsPassword, hostUserId, loginFlags);
    int rc = login_run(s, err);
    login_params_free(&s->login);
    if (rc == 0) {
        atomic_store(&s->state, S_READY);
        if (session_register(s) == 0) {
            if (executedSessionInit) *executedSessionInit = !(loginFlags & GCI_LOGIN_CLIENT_DOES_SESSION_INIT);
            return s;
        }
        err_set(err, 4042, "the stand-in could not register the session");
        frame_send(s, FRAME_QUIT, NULL);
        close(s->fd);
        s->fd = -1;
        reap_gem(s->pid, 2000);
    }
    s->refs = 1;
    session_release(s);
    return NULL;
}

static void *login_thread(void *arg) {
    Session *s = arg;
    int rc = login_run(s, &s->login_err);
    s->exec_session_init = !(s->login.flags & GCI_LOGIN_CLIENT_DOES_SESSION_INIT);
    login_params_free(&s->login);
    /* The state first, so a caller woken by the pipe finds the login finished. The pipe stays
     * open until the session is freed, which this thread's reference holds off. */
    atomic_store(&s->state, rc == 0 ? S_READY : S_LOGIN_FAILED);
    ssize_t w;
    do {
        w = write(s->login_pipe[1], "!", 1);
    } while (w < 0 && errno == EINTR);
    session_release(s);
    return NULL;
}

GCI_EXPORT GciSession GciTsNbLogin(const char *stoneNrs, const char *hostUserId, const char *hostPassword,
                                   BoolType hostPwIsEncrypted, const char *gemServiceNrs, const char *gsUser,
                                   const char *gsPassword, unsigned int loginFlags, int haltOnErrNum,
                                   int *loginPollSocket) {
    (void)hostPassword, (void)hostPwIsEncrypted, (void)haltOnErrNum;
    if (loginPollSocket == NULL) return NULL;
    Session *s = session_new();
    if (s == NULL) return NULL;
    if (pipe2(s->login_pipe, O_CLOEXEC) != 0) {
        s->refs = 1;
        session_release(s);
        return NULL;
    }
    copy_login(&s->login, stoneNrs, gemServiceNrs, gsUser, gsPassword, hostUserId, loginFlags);
    err_clear(&s->login_err);
    if (session_register(s) != 0) {
        s->refs = 1;
        session_release(s);
        return NULL;
    }
    Session *for_thread = session_acquire(s, NULL);
    if (HostCreateThread(login_thread, for_thread) != 0) {
        session_release(for_thread);
        session_unregister(s);
        return NULL;
    }
    *loginPollSocket = s->login_pipe[0];
    return s;
}

GCI_EXPORT int GciTsNbLoginFinished(GciSession sess, BoolType *executedSessionInit, GciErrSType *err) {
    err_clear(err);
    Session *s = session_acquire(sess, err);
    if (s == NULL) return -1;
    int state = atomic_load(&s->state);
    int answer = 0;
    if (state == S_READY) {
        if (executedSessionInit) *executedSessionInit = s->exec_session_init;
        answer = 1;
    } else if (state == S_LOGIN_FAILED) {
        if (err) *err = s->login_err;
        session_unregister(s); /* a failed login leaves no session behind */
        answer = -1;
    }
    session_release(s);
    return answer;
}

static BoolType logout(GciSession sess, GciErrSType *err, int wait_for_gem) {
    err_clear(err);
    Session *s = session_acquire(sess, err);
    if (s == NULL) return 0;
    if (pthread_mutex_trylock(&s->call_lock) != 0) {
        err_set(err, 2203, "the session has a call in progress by another C thread");
        session_release(s);
        return 0;
    }
    if (atomic_load(&s->state) == S_LOGGING_IN) {
        err_set(err, 2203, "the session's GciTsNbLogin has not finished (see GciTsNbLoginFinished)");
        end_call(s);
        return 0;
    }
    if (atomic_load(&s->state) == S_READY) {
        frame_send(s, FRAME_QUIT, NULL);
        pthread_mutex_lock(&s->write_lock); /* a concurrent GciTsBreak must not see a reused fd */
        close(s->fd);
        s->fd = -1;
        pthread_mutex_unlock(&s->write_lock);
        if (wait_for_gem) {
            reap_gem(s->pid, 2000);
            remove_session_entry(s->session_dir, s->gem_session, s->pid);
        } else {
            reap_gem_later(s->pid);
        }
        s->pid = 0;
    }
    atomic_store(&s->state, S_DEAD);
    session_unregister(s);
    end_call(s);
    return 1;
}

GCI_EXPORT BoolType GciTsLogout(GciSession sess, GciErrSType *err) { return logout(sess, err, 1); }

GCI_EXPORT BoolType GciTsNbLogout(GciSession sess, GciErrSType *err) { return logout(sess, err, 0); }

GCI_EXPORT int GciTsSocket(GciSession sess, GciErrSType *err) {
    err_clear(err);
    Session *s = session_acquire(sess, err);
    if (s == NULL) return -1;
    int fd = atomic_load(&s->state) == S_LOGGING_IN ? -1 : s->fd;
    if (fd < 0) err_set(err, 4100, "invalid session: it has no GCI socket");
    session_release(s);
    return fd;
}

GCI_EXPORT int GciTsSessionIsRemote(GciSession sess) {
    Session *s = session_acquire(sess, NULL);
    if (s == NULL) return -1;
    session_release(s);
    return 1;
}

/* GciTsCallInProgress answers 1 while an NB call runs, except that after a hard break it
 * answers 0 although the result is still uncollected, as the real library may (gci-ts.md
 * section 6): the session still refuses calls until GciTsNbResult collects it. */
GCI_EXPORT int GciTsCallInProgress(GciSession sess, GciErrSType *err) {
    err_clear(err);
    Session *s = session_acquire(sess, err);
    if (s == NULL) return -1;
    int answer;
    if (atomic_load(&s->state) == S_DEAD) {
        err_set(err, 4100, "invalid session: the stand-in gem of this session is gone");
        answer = -1;
    } else {
        answer = atomic_load(&s->nb_running) && !atomic_load(&s->hard_broken);
    }
    session_release(s);
    return answer;
}

/* ---- calls ------------------------------------------------------------------------------------- */

/* put_object appends an argument: an immediate OOP, or an exported byte object's bytes. */
static int put_object(Session *s, Buf *b, OopType oop, GciErrSType *err) {
    if (is_special(oop)) {
        unsigned char kind = KIND_SPECIAL;
        buf_put(b, &kind, 1);
        buf_put(b, &oop, 8);
        return 0;
    }
    Export *e = export_find(s, oop);
    if (e == NULL || e->cls == OOP_CLASS_GSPROCESS) {
        err_set(err, 2101, "object with OOP %llu does not exist (the stand-in passes only exported byte objects and immediates)",
                (unsigned long long)oop);
        return -1;
    }
    unsigned char kind = KIND_BYTES;
    uint32_t n = (uint32_t)e->len;
    buf_put(b, &kind, 1);
    buf_put(b, &e->cls, 8);
    buf_put(b, &n, 4);
    buf_put(b, e->bytes, e->len);
    return 0;
}

static void put_string(Buf *b, const void *data, size_t n) {
    uint32_t len = (uint32_t)n;
    buf_put(b, &len, 4);
    buf_put(b, data, n);
}

/* send_call sends a call frame and marks the NB call running. */
static BoolType send_call(Session *s, unsigned char type, Buf *b, GciErrSType *err) {
    if (b->failed) {
        free(b->data);
        err_set(err, 4067, "the stand-in ran out of memory building a call");
        return 0;
    }
    atomic_store(&s->hard_broken, 0);
    atomic_store(&s->nb_running, 1);
    int rc = frame_send(s, type, b);
    free(b->data);
    if (rc != 0) {
        gem_died(s);
        report_dead(s, err);
        return 0;
    }
    return 1;
}

static BoolType nb_perform(GciSession sess, OopType receiver, OopType aSymbol, const char *selectorStr,
                           const OopType *args, int numArgs, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    BoolType ok = 0;
    char name[MAX_CLASS_NAME];
    Buf b = {0};
    const void *sel = selectorStr;
    size_t sel_len = selectorStr ? strlen(selectorStr) : 0;
    if (selectorStr == NULL) {
        Export *e = aSymbol == OOP_ILLEGAL ? NULL : export_find(s, aSymbol);
        if (e == NULL) {
            err_set(err, 2094, "perform needs a selectorStr or an exported Symbol");
            goto out;
        }
        sel = e->bytes;
        sel_len = e->len;
    }
    if (!class_name_of(receiver, name)) {
        if (is_special(receiver) || export_find(s, receiver) != NULL)
            err_set(err, 2010, "a non-class receiver does not understand #%.*s (the stand-in performs only on classes)",
                    (int)(sel_len > 200 ? 200 : sel_len), (const char *)sel);
        else
            err_set(err, 2101, "object with OOP %llu does not exist", (unsigned long long)receiver);
        goto out;
    }
    if (numArgs < 0 || (numArgs > 0 && args == NULL)) {
        err_set(err, 2094, "numArgs %d does not match args", numArgs);
        goto out;
    }
    put_string(&b, name, strlen(name));
    put_string(&b, sel, sel_len);
    uint32_t n = (uint32_t)numArgs;
    buf_put(&b, &n, 4);
    for (int i = 0; i < numArgs; i++) {
        if (put_object(s, &b, args[i], err) != 0) goto out;
    }
    ok = send_call(s, FRAME_PERFORM, &b, err);
    b.data = NULL;
out:
    free(b.data);
    end_call(s);
    return ok;
}

#ifndef STANDIN_OMIT_NBPERFORM
GCI_EXPORT BoolType GciTsNbPerform(GciSession sess, OopType receiver, OopType aSymbol, const char *selectorStr,
                                   const OopType *args, int numArgs, int flags, ushort environmentId,
                                   GciErrSType *err) {
    (void)flags, (void)environmentId;
    return nb_perform(sess, receiver, aSymbol, selectorStr, args, numArgs, err);
}
#endif

static BoolType nb_execute(GciSession sess, const char *sourceStr, OopType sourceOop, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    BoolType ok = 0;
    Buf b = {0};
    if (sourceStr != NULL) {
        buf_put(&b, sourceStr, strlen(sourceStr));
    } else {
        Export *e = export_find(s, sourceOop);
        if (e == NULL || e->cls == OOP_CLASS_GSPROCESS) {
            err_set(err, 2101, "the source object does not exist");
            goto out;
        }
        buf_put(&b, e->bytes, e->len);
    }
    ok = send_call(s, FRAME_EXECUTE, &b, err);
    b.data = NULL;
out:
    free(b.data);
    end_call(s);
    return ok;
}

GCI_EXPORT BoolType GciTsNbExecute(GciSession sess, const char *sourceStr, OopType sourceOop,
                                   OopType contextObject, OopType symbolList, int flags,
                                   ushort environmentId, GciErrSType *err) {
    (void)contextObject, (void)symbolList, (void)flags, (void)environmentId;
    return nb_execute(sess, sourceStr, sourceOop, err);
}

/* take_result reads the result frame if GciTsNbPoll has not already, blocking. Caller holds
 * call_lock. Answers 0, or -1 when the gem is gone (gem_died has run). */
static int take_result(Session *s, int timeout_ms) {
    if (s->have_pending) return 1;
    int ready = wait_readable(s->fd, timeout_ms);
    if (ready == 0) return 0;
    if (ready < 0 || frame_read(s->fd, &s->pending_type, &s->pending, &s->pending_len) != 0) {
        gem_died(s);
        return -1;
    }
    s->have_pending = 1;
    return 1;
}

GCI_EXPORT int GciTsNbPoll(GciSession sess, int timeoutMs, GciErrSType *err) {
    Session *s = begin_call(sess, err, 0);
    if (s == NULL) return -1;
    int answer;
    if (!atomic_load(&s->nb_running)) {
        err_set(err, 2204, "no Nb call in progress");
        answer = -1;
    } else {
        answer = take_result(s, timeoutMs < 0 ? -1 : timeoutMs);
        if (answer < 0) report_dead(s, err);
    }
    end_call(s);
    return answer;
}

GCI_EXPORT OopType GciTsNbResult(GciSession sess, GciErrSType *err) {
    Session *s = begin_call(sess, err, 0);
    if (s == NULL) return OOP_ILLEGAL;
    OopType answer = OOP_ILLEGAL;
    if (!atomic_load(&s->nb_running)) {
        err_set(err, 2204, "no Nb call in progress");
        goto out;
    }
    if (take_result(s, -1) < 0) {
        report_dead(s, err);
        goto out;
    }
    unsigned char *p = s->pending;
    uint32_t len = s->pending_len;
    unsigned char type = s->pending_type;
    s->pending = NULL;
    s->have_pending = 0;
    atomic_store(&s->nb_running, 0);
    atomic_store(&s->hard_broken, 0);
    if (type == FRAME_RESULT && len >= 9 && p[0] == KIND_BYTES) {
        OopType cls;
        memcpy(&cls, p + 1, 8);
        answer = export_add(s, cls, p, p + 9, len - 9);
        if (answer == OOP_ILLEGAL) {
            free(p);
            err_set(err, 4067, "the stand-in ran out of memory for its export table");
        }
        goto out;
    }
    if (type == FRAME_RESULT && len >= 9 && p[0] == KIND_SPECIAL) {
        memcpy(&answer, p + 1, 8);
    } else if (type == FRAME_ERROR) {
        int flags = gem_error_fill(p, len, err);
        if ((flags & ERRF_HAS_CONTEXT) && err != NULL) err->context = export_add(s, OOP_CLASS_GSPROCESS, NULL, NULL, 0);
    } else {
        err_set(err, 4102, "malformed result frame from the stand-in gem");
    }
    free(p);
out:
    end_call(s);
    return answer;
}

static OopType wait_result(GciSession sess, BoolType started, GciErrSType *err) {
    return started ? GciTsNbResult(sess, err) : OOP_ILLEGAL;
}

GCI_EXPORT OopType GciTsPerform(GciSession sess, OopType receiver, OopType aSymbol, const char *selectorStr,
                                const OopType *args, int numArgs, int flags, ushort environmentId,
                                GciErrSType *err) {
    (void)flags, (void)environmentId;
    return wait_result(sess, nb_perform(sess, receiver, aSymbol, selectorStr, args, numArgs, err), err);
}

GCI_EXPORT OopType GciTsExecute(GciSession sess, const char *sourceStr, OopType sourceOop,
                                OopType contextObject, OopType symbolList, int flags, ushort environmentId,
                                GciErrSType *err) {
    (void)contextObject, (void)symbolList, (void)flags, (void)environmentId;
    return wait_result(sess, nb_execute(sess, sourceStr, sourceOop, err), err);
}

/* GciTsBreak takes no call lock: it must reach a call that another thread is waiting on. */
GCI_EXPORT BoolType GciTsBreak(GciSession sess, BoolType hard, GciErrSType *err) {
    err_clear(err);
    Session *s = session_acquire(sess, err);
    if (s == NULL) return 0;
    BoolType ok = 1;
    int state = atomic_load(&s->state);
    if (state == S_DEAD) {
        err_set(err, 4100, "invalid session: the stand-in gem of this session is gone");
        ok = 0;
    } else if (state == S_READY && atomic_load(&s->nb_running)) {
        Buf b = {0};
        unsigned char h = hard ? 1 : 0;
        buf_put(&b, &h, 1);
        if (hard) atomic_store(&s->hard_broken, 1);
        frame_send(s, FRAME_BREAK, &b); /* a dead gem is reported by the next call, not here */
        free(b.data);
    }
    session_release(s);
    return ok;
}

GCI_EXPORT BoolType GciTsClearStack(GciSession sess, OopType gsProcess, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    BoolType ok = 1;
    if (gsProcess != OOP_NIL && gsProcess != OOP_ILLEGAL) {
        Export *e = export_find(s, gsProcess);
        if (e == NULL || e->cls != OOP_CLASS_GSPROCESS) {
            err_set(err, 2101, "GciTsClearStack: %llu is not a suspended GsProcess", (unsigned long long)gsProcess);
            ok = 0;
        } else {
            export_remove(s, gsProcess);
        }
    }
    end_call(s);
    return ok;
}

static BoolType transaction_call(GciSession sess, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    end_call(s);
    return 1;
}

GCI_EXPORT BoolType GciTsAbort(GciSession sess, GciErrSType *err) { return transaction_call(sess, err); }
GCI_EXPORT BoolType GciTsBegin(GciSession sess, GciErrSType *err) { return transaction_call(sess, err); }
GCI_EXPORT BoolType GciTsCommit(GciSession sess, GciErrSType *err) { return transaction_call(sess, err); }

/* ---- objects ------------------------------------------------------------------------------------ */

static OopType new_bytes(GciSession sess, OopType cls, const void *bytes, size_t n, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return OOP_ILLEGAL;
    OopType oop;
    if (bytes == NULL && n > 0) {
        err_set(err, 2094, "a NULL body of %zu bytes", n);
        oop = OOP_ILLEGAL;
    } else {
        oop = export_copy(s, cls, bytes, n, err);
    }
    end_call(s);
    return oop;
}

/* valid_utf8 checks the byte structure of UTF-8 (lead and continuation bytes). */
static int valid_utf8(const unsigned char *p, size_t n) {
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        size_t extra;
        if (c < 0x80) extra = 0;
        else if ((c & 0xE0) == 0xC0 && c >= 0xC2) extra = 1;
        else if ((c & 0xF0) == 0xE0) extra = 2;
        else if ((c & 0xF8) == 0xF0 && c <= 0xF4) extra = 3;
        else return 0;
        if (n - i <= extra) return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((p[i + k] & 0xC0) != 0x80) return 0;
        }
        i += extra + 1;
    }
    return 1;
}

GCI_EXPORT OopType GciTsNewString_(GciSession sess, const char *bytes, size_t nBytes, GciErrSType *err) {
    return new_bytes(sess, OOP_CLASS_STRING, bytes, nBytes, err);
}

GCI_EXPORT OopType GciTsNewString(GciSession sess, const char *cString, GciErrSType *err) {
    return new_bytes(sess, OOP_CLASS_STRING, cString, cString ? strlen(cString) : 0, err);
}

GCI_EXPORT OopType GciTsNewSymbol(GciSession sess, const char *cString, GciErrSType *err) {
    return new_bytes(sess, OOP_CLASS_SYMBOL, cString, cString ? strlen(cString) : 0, err);
}

GCI_EXPORT OopType GciTsNewUtf8String_(GciSession sess, const char *utf8, size_t nBytes,
                                       BoolType convertToUnicode, GciErrSType *err) {
    if (convertToUnicode && utf8 != NULL && !valid_utf8((const unsigned char *)utf8, nBytes)) {
        err_clear(err);
        err_set(err, 2094, "GciTsNewUtf8String_: the bytes are not legal UTF-8");
        return OOP_ILLEGAL;
    }
    return new_bytes(sess, convertToUnicode ? OOP_CLASS_Unicode7 : OOP_CLASS_Utf8, utf8, nBytes, err);
}

GCI_EXPORT OopType GciTsNewUtf8String(GciSession sess, const char *utf8, BoolType convertToUnicode,
                                      GciErrSType *err) {
    return GciTsNewUtf8String_(sess, utf8, utf8 ? strlen(utf8) : 0, convertToUnicode, err);
}

GCI_EXPORT OopType GciTsNewByteArray(GciSession sess, ByteType *body, size_t numBytes, GciErrSType *err) {
    return new_bytes(sess, OOP_CLASS_BYTE_ARRAY, body, numBytes, err);
}

static OopType resolve(Session *s, const char *name, size_t len, GciErrSType *err) {
    OopType oop = class_named(name, len);
    if (oop == OOP_ILLEGAL)
        err_set(err, 2106, "undefined symbol %.*s: the stand-in knows McpServer, System, kernel byte classes and GCI_STANDIN_CLASSES",
                (int)(len > 200 ? 200 : len), name);
    (void)s;
    return oop;
}

GCI_EXPORT OopType GciTsResolveSymbol(GciSession sess, const char *name, OopType symbolList, GciErrSType *err) {
    (void)symbolList;
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return OOP_ILLEGAL;
    OopType oop = name ? resolve(s, name, strlen(name), err) : OOP_ILLEGAL;
    if (name == NULL) err_set(err, 2094, "GciTsResolveSymbol: NULL name");
    end_call(s);
    return oop;
}

GCI_EXPORT OopType GciTsResolveSymbolObj(GciSession sess, OopType symbol, OopType symbolList, GciErrSType *err) {
    (void)symbolList;
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return OOP_ILLEGAL;
    OopType oop = OOP_ILLEGAL;
    Export *e = export_find(s, symbol);
    if (e == NULL || e->cls == OOP_CLASS_GSPROCESS)
        err_set(err, 2101, "GciTsResolveSymbolObj: %llu is not an exported String or Symbol", (unsigned long long)symbol);
    else
        oop = resolve(s, (const char *)e->bytes, e->len, err);
    end_call(s);
    return oop;
}

GCI_EXPORT int64 GciTsFetchSize(GciSession sess, OopType obj, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return -1;
    int64 size = 0;
    char name[MAX_CLASS_NAME];
    if (!is_special(obj) && !class_name_of(obj, name)) {
        Export *e = export_find(s, obj);
        if (e == NULL) {
            err_set(err, 2101, "object with OOP %llu does not exist", (unsigned long long)obj);
            size = -1;
        } else {
            size = (int64)e->len;
        }
    }
    end_call(s);
    return size;
}

GCI_EXPORT OopType GciTsFetchClass(GciSession sess, OopType obj, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return OOP_ILLEGAL;
    OopType cls = OOP_ILLEGAL;
    char name[MAX_CLASS_NAME];
    if ((obj & 7) == 2) {
        cls = OOP_CLASS_SMALL_INTEGER;
    } else if (is_special(obj) || class_name_of(obj, name)) {
        err_set(err, 2101, "the stand-in does not model the class of OOP %llu", (unsigned long long)obj);
    } else {
        Export *e = export_find(s, obj);
        if (e != NULL) cls = e->cls;
        else err_set(err, 2101, "object with OOP %llu does not exist", (unsigned long long)obj);
    }
    end_call(s);
    return cls;
}

GCI_EXPORT int64 GciTsFetchBytes(GciSession sess, OopType obj, int64 startIndex, ByteType *dest,
                                 int64 numBytes, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return -1;
    int64 n = -1;
    Export *e = export_find(s, obj);
    if (e == NULL || e->cls == OOP_CLASS_GSPROCESS) {
        err_set(err, 2101, "object with OOP %llu is not an exported byte object", (unsigned long long)obj);
    } else if (startIndex < 1 || startIndex > (int64)e->len + 1 || numBytes < 0 || (dest == NULL && numBytes > 0)) {
        err_set(err, 2003, "index %lld is out of range for an object of %zu bytes", (long long)startIndex, e->len);
    } else {
        int64 left = (int64)e->len - (startIndex - 1);
        n = numBytes < left ? numBytes : left;
        if (n > 0) memcpy(dest, e->bytes + (startIndex - 1), (size_t)n);
    }
    end_call(s);
    return n;
}

GCI_EXPORT BoolType GciTsReleaseObjs(GciSession sess, OopType *buf, int count, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    for (int i = 0; buf != NULL && i < count; i++) export_remove(s, buf[i]);
    end_call(s);
    return 1;
}

GCI_EXPORT BoolType GciTsReleaseAllObjs(GciSession sess, GciErrSType *err) {
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    exports_clear(s);
    end_call(s);
    return 1;
}

/* GciStandinExportCount looks without touching the session's state, so asking never uses up
 * the fatal report of a gem that died. -1 also while another thread is inside a call. */
GCI_EXPORT int64 GciStandinExportCount(GciSession sess) {
    Session *s = session_acquire(sess, NULL);
    if (s == NULL) return -1;
    int64 n = -1;
    if (pthread_mutex_trylock(&s->call_lock) == 0) {
        n = (int64)s->nexports;
        pthread_mutex_unlock(&s->call_lock);
    }
    session_release(s);
    return n;
}

GCI_EXPORT BoolType GciTsOopToI64(GciSession sess, OopType oop, int64 *result, GciErrSType *err) {
    err_clear(err);
    if ((oop & 7) == 2) {
        if (result) *result = (int64)oop >> 3;
        return 1;
    }
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return 0;
    BoolType ok = 0;
    Export *e = export_find(s, oop);
    if (e != NULL && e->cls == OOP_CLASS_LargeInteger && e->len == 8) {
        if (result) memcpy(result, e->bytes, 8);
        ok = 1;
    } else {
        err_set(err, 2094, "OOP %llu is not an integer", (unsigned long long)oop);
    }
    end_call(s);
    return ok;
}

GCI_EXPORT OopType GciTsI64ToOop(GciSession sess, int64 arg, GciErrSType *err) {
    err_clear(err);
    if (arg >= SMALLINT_MIN && arg <= SMALLINT_MAX) return ((OopType)arg << 3) | 2;
    Session *s = begin_call(sess, err, 1);
    if (s == NULL) return OOP_ILLEGAL;
    OopType oop = export_copy(s, OOP_CLASS_LargeInteger, &arg, 8, err);
    end_call(s);
    return oop;
}

/* GciTsEncrypt: the stand-in's "encryption" is the marker "standin-encrypted:" before the
 * password, which its gem strips under GCI_LOGIN_PW_ENCRYPTED. Not a cipher. */
GCI_EXPORT char *GciTsEncrypt(const char *password, char *outBuf, size_t outBufSize) {
    if (password == NULL || password[0] == '\0' || outBuf == NULL) return NULL;
    if (strlen(ENCRYPTED_PREFIX) + strlen(password) + 1 > outBufSize) return NULL;
    snprintf(outBuf, outBufSize, "%s%s", ENCRYPTED_PREFIX, password);
    return outBuf;
}
