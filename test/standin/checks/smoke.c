/* A C check of the GCI TEST STAND-IN's libgcits, linked against it directly: the struct
 * layout, login and its failures, prepare/handle through the fixture worker, paged fetches,
 * breaks, the one-call rule, stopSession:, a SIGKILLed gem, a gem that exits, NbLogin, and
 * that no gem is left a zombie. Run by `make standin-test`; GCI_STANDIN_DIR should name a
 * private session directory. */
#define _GNU_SOURCE
#include "gcits_standin.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int failures;

#define CHECK(cond, ...)                                  \
    do {                                                  \
        if (cond) {                                       \
            printf("ok   ");                              \
        } else {                                          \
            printf("FAIL ");                              \
            failures++;                                   \
        }                                                 \
        printf(__VA_ARGS__);                              \
        printf("\n");                                     \
    } while (0)

static const char *config =
    "{\"contract\":1,\"workerClass\":\"McpServer\",\"protocolVersions\":[\"2025-11-25\"],"
    "\"cacheName\":\"McpServer:smoke:00000000\",\"resultCap\":0,"
    "\"frontEnd\":{\"name\":\"smoke\",\"version\":\"0\",\"routerId\":\"smoke\"}}";

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static GciSession login(const char *user, const char *password, unsigned flags, GciErrSType *err) {
    BoolType init = 0;
    return GciTsLogin("!tcp@localhost#server!gs64stone", NULL, NULL, 0,
                      "!tcp@localhost#netldi:50377#task!gemnetobject -C GEM_TEMPOBJ_CACHE_SIZE=90000;X=1",
                      user, password, flags | GCI_LOGIN_QUIET, 0, &init, err);
}

/* fetch reads a byte result in pages of page bytes into a malloc'd NUL-terminated string. */
static char *fetch(GciSession s, OopType oop, int64 page, int64 *size_out) {
    GciErrSType err;
    int64 size = GciTsFetchSize(s, oop, &err);
    if (size < 0) return NULL;
    char *out = malloc((size_t)size + 1);
    int64 got = 0;
    while (got < size) {
        int64 n = GciTsFetchBytes(s, oop, got + 1, (ByteType *)out + got, page, &err);
        if (n <= 0) break;
        got += n;
    }
    out[got] = '\0';
    if (size_out) *size_out = got;
    return out;
}

/* perform starts a one-String-argument perform on McpServer and answers whether it started. */
static BoolType start(GciSession s, const char *selector, const char *arg, GciErrSType *err) {
    OopType cls = GciTsResolveSymbol(s, "McpServer", OOP_NIL, err);
    if (cls == OOP_ILLEGAL) return 0;
    OopType args[1];
    int n = 0;
    if (arg != NULL) {
        args[0] = GciTsNewString_(s, arg, strlen(arg), err);
        n = 1;
    }
    return GciTsNbPerform(s, cls, OOP_ILLEGAL, selector, args, n, 0, 0, err);
}

/* call runs a perform to completion and answers its bytes (malloc'd), or NULL with err set. */
static char *call(GciSession s, const char *selector, const char *arg, GciErrSType *err) {
    if (!start(s, selector, arg, err)) return NULL;
    if (GciTsNbPoll(s, 10000, err) != 1) return NULL;
    OopType r = GciTsNbResult(s, err);
    if (r == OOP_ILLEGAL) return NULL;
    char *text = fetch(s, r, 7, NULL);
    GciTsReleaseAllObjs(s, err);
    return text;
}

static char *tool(GciSession s, const char *name, const char *args, GciErrSType *err) {
    char msg[512];
    snprintf(msg, sizeof msg,
             "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"%s\",\"arguments\":%s}}",
             name, args);
    return call(s, "mcpHandle:", msg, err);
}

static int system_perform(GciSession s, const char *selector, OopType arg, OopType *result, GciErrSType *err) {
    OopType sys = GciTsResolveSymbol(s, "System", OOP_NIL, err);
    if (!GciTsNbPerform(s, sys, OOP_ILLEGAL, selector, &arg, arg == OOP_ILLEGAL ? 0 : 1, 0, 0, err)) return -1;
    if (GciTsNbPoll(s, 10000, err) != 1) return -1;
    *result = GciTsNbResult(s, err);
    return *result == OOP_ILLEGAL ? -1 : 0;
}

static void check_layout(void) {
    CHECK(sizeof(GciErrSType) == 2168, "sizeof(GciErrSType) == 2168 (%zu)", sizeof(GciErrSType));
    CHECK(offsetof(GciErrSType, category) == 0 && offsetof(GciErrSType, context) == 8 &&
              offsetof(GciErrSType, exceptionObj) == 16 && offsetof(GciErrSType, args) == 24 &&
              offsetof(GciErrSType, number) == 104 && offsetof(GciErrSType, argCount) == 108 &&
              offsetof(GciErrSType, fatal) == 112 && offsetof(GciErrSType, message) == 113 &&
              offsetof(GciErrSType, reason) == 1138,
          "GciErrSType offsets 0/8/16/24/104/108/112/113/1138");
    char v[128];
    CHECK(GciTsVersion(v, sizeof v) == 3 && strstr(v, "3.7.5") == v && strstr(v, "NOT GEMSTONE") != NULL,
          "GciTsVersion answers 3 and \"%s\"", v);
    GciErrSType err;
    CHECK(GciTsI64ToOop(NULL, 1, &err) == 0xA && GciTsI64ToOop(NULL, -1, &err) == 0xFFFFFFFFFFFFFFFAull,
          "SmallIntegers encode as v<<3|2");
    char enc[64];
    CHECK(GciTsEncrypt("pw", enc, sizeof enc) == enc && GciTsEncrypt("", enc, sizeof enc) == NULL &&
              GciTsEncrypt("pw", enc, 4) == NULL,
          "GciTsEncrypt marks, and refuses an empty password or a small buffer");
}

static void check_login_failures(void) {
    GciErrSType err;
    GciSession s = login("baduser", "swordfish", 0, &err);
    CHECK(s == NULL && err.number == 4051 && err.fatal && err.category == OOP_GEMSTONE_ERROR_CAT,
          "a bad user is refused with 4051, fatal, GemStone category (%d)", err.number);
    s = login("DataCurator", "wrong", 0, &err);
    CHECK(s == NULL && err.number == 4051, "a wrong password is refused with 4051");
    BoolType init;
    s = GciTsLogin("!tcp@localhost#server!nostone", NULL, NULL, 0, NULL, "DataCurator", "swordfish", 0, 0, &init, &err);
    CHECK(s == NULL && err.number == 4065 && strstr(err.message, "STAND-IN") != NULL,
          "a missing stone is refused with 4065: %s", err.message);
    char enc[64];
    GciTsEncrypt("swordfish", enc, sizeof enc);
    s = login("DataCurator", enc, GCI_LOGIN_PW_ENCRYPTED, &err);
    CHECK(s != NULL, "an encrypted password logs in");
    if (s) GciTsLogout(s, &err);
    s = login("DataCurator", "a.eyJzdWIiOiJhbGljZSJ9.c", GCI_LOGIN_JWT_PASSWORD, &err);
    CHECK(s != NULL, "a JWT-shaped password logs in with GCI_LOGIN_JWT_PASSWORD");
    if (s) {
        OopType r;
        char *info = system_perform(s, "standinLoginInfo", OOP_ILLEGAL, &r, &err) == 0 ? fetch(s, r, 4096, NULL) : NULL;
        CHECK(info && strstr(info, "\"user\":\"alice\"") && strstr(info, "\"GEM_TEMPOBJ_CACHE_SIZE\":\"90000\"") &&
                  !strstr(info, "a.eyJ"),
              "the gem records the JWT sub and the -C gem configuration, never the password: %s", info ? info : "");
        free(info);
        GciTsLogout(s, &err);
    }
    s = login("DataCurator", "not-a-jwt", GCI_LOGIN_JWT_PASSWORD, &err);
    CHECK(s == NULL && err.number == 4051, "a password that is not JWT-shaped is refused under the JWT flag");
}

static void check_calls(GciSession s) {
    GciErrSType err;
    char *answer = call(s, "mcpPrepare:", config, &err);
    CHECK(answer && strstr(answer, "\"ok\":true") && strstr(answer, "\"gemSession\":"), "mcpPrepare: answers %s",
          answer ? answer : err.message);
    free(answer);

    answer = tool(s, "echo", "{\"text\":\"h\\u00e9llo \\ud83d\\ude00\"}", &err);
    CHECK(answer && strstr(answer, "\"text\":\"h\xc3\xa9llo \xf0\x9f\x98\x80\""), "echo round-trips through paged fetches: %s",
          answer ? answer : err.message);
    free(answer);

    answer = tool(s, "big", "{\"n\":12582912}", &err);
    CHECK(answer && strlen(answer) > 12582912, "big answers 12 MiB (%zu bytes of JSON)", answer ? strlen(answer) : 0);
    free(answer);

    CHECK(GciStandinExportCount(s) == 0, "released results leave the export table empty");
    OopType str = GciTsNewString(s, "x", &err);
    CHECK(GciStandinExportCount(s) == 1 && GciTsFetchClass(s, str, &err) == OOP_CLASS_STRING, "a new String is exported");
    GciTsReleaseObjs(s, &str, 1, &err);
    CHECK(GciStandinExportCount(s) == 0 && GciTsFetchSize(s, str, &err) == -1 && err.number == 2101,
          "a released object is gone (2101)");

    OopType cls = GciTsResolveSymbol(s, "NoSuchClass", OOP_NIL, &err);
    CHECK(cls == OOP_ILLEGAL && err.number == 2106 && !err.fatal, "an unknown class name is an undefined symbol (2106)");
    answer = call(s, "noSuchSelector", NULL, &err);
    CHECK(answer == NULL && err.number == 2010 && !err.fatal, "an unknown selector does not understand (2010)");
    CHECK(GciTsNbExecute(s, "3 + 4", OOP_CLASS_STRING, OOP_ILLEGAL, OOP_NIL, 0, 0, &err) && GciTsNbPoll(s, 5000, &err) == 1 &&
              GciTsNbResult(s, &err) == OOP_ILLEGAL && err.number == 1001,
          "execute of anything but a control source is a compile error (1001)");
    CHECK(GciTsNbPoll(s, 0, &err) == -1 && err.number != 0, "GciTsNbPoll with no call in progress answers -1");
    CHECK(GciTsBreak(s, 0, &err) == 1, "GciTsBreak with nothing running is a no-op answering TRUE");
}

static void check_breaks(GciSession s) {
    GciErrSType err;
    double t0 = now_ms();
    char msg[256];
    snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"sleep\",\"arguments\":{\"ms\":5000}}}");
    int64 exported = GciStandinExportCount(s);
    CHECK(start(s, "mcpHandle:", msg, &err), "sleep 5000 started");
    CHECK(GciTsNbPoll(s, 50, &err) == 0, "GciTsNbPoll answers 0 while it runs");
    CHECK(GciTsCallInProgress(s, &err) == 1, "GciTsCallInProgress answers 1 while it runs");
    OopType str = GciTsNewString(s, "x", &err);
    CHECK(str == OOP_ILLEGAL && err.number == 2203 && !err.fatal, "a call while an NB call runs is refused (2203)");
    CHECK(GciTsBreak(s, 0, &err), "soft break sent");
    OopType r = GciTsNbPoll(s, 5000, &err) == 1 ? GciTsNbResult(s, &err) : OOP_ILLEGAL;
    CHECK(r == OOP_ILLEGAL && err.number == 6003 && err.context != OOP_NIL && now_ms() - t0 < 2000,
          "the soft break ends sleep with 6003 and a context, in %.0f ms", now_ms() - t0);
    CHECK(GciTsClearStack(s, err.context, &err), "GciTsClearStack drops the context");
    CHECK(GciStandinExportCount(s) == exported + 1, "only the call's argument is left exported after the break");
    GciTsReleaseAllObjs(s, &err);

    snprintf(msg, sizeof msg, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"sleep_soft_immune\",\"arguments\":{\"ms\":5000}}}");
    t0 = now_ms();
    start(s, "mcpHandle:", msg, &err);
    GciTsBreak(s, 0, &err);
    CHECK(GciTsNbPoll(s, 300, &err) == 0, "sleep_soft_immune survives a soft break");
    GciTsBreak(s, 1, &err);
    CHECK(GciTsCallInProgress(s, &err) == 0, "after a hard break GciTsCallInProgress answers 0 ...");
    CHECK(GciTsNewString(s, "x", &err) == OOP_ILLEGAL && err.number == 2203, "... but calls are refused until the result is collected");
    r = GciTsNbPoll(s, 5000, &err) == 1 ? GciTsNbResult(s, &err) : OOP_ILLEGAL;
    CHECK(r == OOP_ILLEGAL && err.number == 6004 && now_ms() - t0 < 2000, "the hard break ends it with 6004");
    GciTsClearStack(s, err.context, &err);
    char *answer = call(s, "mcpHandle:", "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}", &err);
    CHECK(answer && strstr(answer, "\"result\":{}"), "the session serves the next call: %s", answer ? answer : err.message);
    free(answer);
}

typedef struct {
    GciSession s;
    int poll_answer;
    OopType result;
    GciErrSType err;
    double ended;
} Waiter;

static void *wait_forever(void *arg) {
    Waiter *w = arg;
    w->poll_answer = GciTsNbPoll(w->s, -1, &w->err);
    w->result = GciTsNbResult(w->s, &w->err);
    w->ended = now_ms();
    return NULL;
}

/* check_break_from_another_thread: one thread waits inside GciTsNbPoll(-1) holding the
 * session's call lock; another breaks, which must neither block nor be refused. */
static void check_break_from_another_thread(GciSession s) {
    GciErrSType err;
    start(s, "mcpHandle:", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"sleep\",\"arguments\":{\"ms\":5000}}}", &err);
    Waiter w = {.s = s};
    pthread_t t;
    pthread_create(&t, NULL, wait_forever, &w);
    usleep(100000);
    CHECK(GciTsNewString(s, "x", &err) == OOP_ILLEGAL && err.number == 2203,
          "a call from a second thread while the first waits in GciTsNbPoll is refused (2203)");
    double t0 = now_ms();
    BoolType sent = GciTsBreak(s, 0, &err);
    double took = now_ms() - t0;
    pthread_join(t, NULL);
    CHECK(sent && took < 50, "GciTsBreak from another thread returns at once (%.1f ms)", took);
    CHECK(w.poll_answer == 1 && w.result == OOP_ILLEGAL && w.err.number == 6003 && w.ended - t0 < 2000,
          "the waiting thread sees the call end with 6003");
    GciTsClearStack(s, w.err.context, &err);
    GciTsReleaseAllObjs(s, &err);
}

typedef struct {
    int ok;
} Parallel;

static void *login_sleep_logout(void *arg) {
    Parallel *p = arg;
    GciErrSType err;
    GciSession s = login("DataCurator", "swordfish", 0, &err);
    if (s == NULL) return NULL;
    char *prepared = call(s, "mcpPrepare:", config, &err);
    char *slept = tool(s, "sleep", "{\"ms\":400}", &err);
    p->ok = prepared && slept && strstr(slept, "slept 400 ms") != NULL;
    free(prepared);
    free(slept);
    p->ok = GciTsLogout(s, &err) && p->ok;
    return NULL;
}

/* check_parallel_sessions: sessions on their own threads do not wait for each other. */
static void check_parallel_sessions(void) {
    enum { N = 6 };
    pthread_t t[N];
    Parallel p[N] = {{0}};
    double t0 = now_ms();
    for (int i = 0; i < N; i++) pthread_create(&t[i], NULL, login_sleep_logout, &p[i]);
    int ok = 0;
    for (int i = 0; i < N; i++) {
        pthread_join(t[i], NULL);
        ok += p[i].ok;
    }
    double took = now_ms() - t0;
    CHECK(ok == N && took < N * 400 / 2, "%d sessions on %d threads each slept 400 ms in %.0f ms together", ok, N, took);
}

static int read_pid(int session) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%d", getenv("GCI_STANDIN_DIR"), session);
    FILE *f = fopen(path, "r");
    if (f == NULL) return -1;
    int pid = -1;
    if (fscanf(f, "%d", &pid) != 1) pid = -1;
    fclose(f);
    return pid;
}

static void check_deaths(void) {
    GciErrSType err;
    GciSession a = login("DataCurator", "swordfish", 0, &err), b = login("DataCurator", "swordfish", 0, &err);
    CHECK(a && b, "two sessions log in");
    if (!a || !b) return;
    OopType r;
    CHECK(system_perform(b, "session", OOP_ILLEGAL, &r, &err) == 0 && (r & 7) == 2, "System session answers a SmallInteger");
    int nb = (int)((int64)r >> 3);
    CHECK(read_pid(nb) > 0, "session %d is registered with its pid", nb);
    CHECK(system_perform(a, "stopSession:", GciTsI64ToOop(a, nb, &err), &r, &err) == 0 && r == OOP_TRUE,
          "System stopSession: %d from another session answers true", nb);
    usleep(50000);
    OopType x = GciTsNewString(b, "x", &err);
    CHECK(x == OOP_ILLEGAL && err.number == 4137 && err.fatal, "the stopped session's next call fails 4137, fatal (%d)", err.number);
    CHECK(GciTsNewString(b, "x", &err) == OOP_ILLEGAL && err.number == 4100 && err.fatal, "later calls fail 4100, fatal");
    CHECK(read_pid(nb) == -1, "the killed gem's session entry is gone");
    CHECK(GciTsLogout(b, &err), "logout of a dead session succeeds");
    CHECK(GciTsNewString(b, "x", &err) == OOP_ILLEGAL && err.number == 4100, "a call after logout fails 4100");
    CHECK(system_perform(a, "stopSession:", GciTsI64ToOop(a, nb, &err), &r, &err) == 0 && r == OOP_FALSE,
          "stopSession: of a session that is gone answers false");

    /* a SIGKILL during a call */
    GciSession c = login("DataCurator", "swordfish", 0, &err);
    free(call(c, "mcpPrepare:", config, &err));
    system_perform(c, "session", OOP_ILLEGAL, &r, &err);
    int pid = read_pid((int)((int64)r >> 3));
    start(c, "mcpHandle:", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"sleep_immune\",\"arguments\":{\"ms\":5000}}}", &err);
    kill(pid, SIGKILL);
    CHECK(GciTsNbPoll(c, 5000, &err) == -1 && err.number == 4137 && err.fatal, "GciTsNbPoll answers -1 with 4137 for a SIGKILLed gem");
    GciTsLogout(c, &err);

    /* the die tool: the gem exits mid-call */
    free(call(a, "mcpPrepare:", config, &err));
    start(a, "mcpHandle:", "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"die\",\"arguments\":{}}}", &err);
    CHECK(GciTsNbPoll(a, 5000, &err) == -1 && err.number == 4148 && err.fatal, "a gem that exits mid-call gives 4148 (%d)", err.number);
    GciTsLogout(a, &err);
}

static void check_nblogin(void) {
    int fd = -1;
    GciSession s = GciTsNbLogin(NULL, NULL, NULL, 0, NULL, "DataCurator", "swordfish", GCI_LOGIN_QUIET, 0, &fd);
    CHECK(s != NULL && fd >= 0, "GciTsNbLogin starts");
    if (s == NULL) return;
    struct pollfd p = {.fd = fd, .events = POLLIN};
    CHECK(poll(&p, 1, 10000) == 1, "the login poll socket turns readable");
    GciErrSType err;
    BoolType init = 0;
    CHECK(GciTsNbLoginFinished(s, &init, &err) == 1 && init, "GciTsNbLoginFinished answers 1");
    CHECK(GciTsSocket(s, &err) >= 0 && GciTsLogout(s, &err), "the session has a socket and logs out");

    s = GciTsNbLogin("nostone", NULL, NULL, 0, NULL, "DataCurator", "swordfish", 0, 0, &fd);
    p.fd = fd;
    poll(&p, 1, 10000);
    CHECK(GciTsNbLoginFinished(s, &init, &err) == -1 && err.number == 4065, "a failed NbLogin answers -1 with its error");
}

int main(void) {
    if (getenv("GCI_STANDIN_DIR") == NULL) {
        fprintf(stderr, "smoke: set GCI_STANDIN_DIR to a private session directory\n");
        return 2;
    }
    double t0 = now_ms();
    check_layout();
    check_login_failures();
    GciErrSType err;
    GciSession s = login("DataCurator", "swordfish", 0, &err);
    CHECK(s != NULL && GciTsSocket(s, &err) > 2, "login succeeds and GciTsSocket answers the gem's socket");
    if (s != NULL) {
        check_calls(s);
        check_breaks(s);
        check_break_from_another_thread(s);
        CHECK(GciTsLogout(s, &err), "logout");
        CHECK(GciTsLogout(s, &err) == 0 && err.number == 4100, "a second logout fails 4100");
    }
    check_deaths();
    check_nblogin();
    check_parallel_sessions();
    usleep(100000);
    errno = 0;
    CHECK(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "no gem process is left unreaped");
    printf("smoke: %s in %.0f ms\n", failures ? "FAILED" : "all passed", now_ms() - t0);
    return failures ? 1 : 0;
}
