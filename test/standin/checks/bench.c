/* Figures of the GCI TEST STAND-IN alone (no Go binding): login+logout, a trivial perform and
 * an mcpHandle: echo round trip. Run by `make standin-bench`; not part of make test. */
#define _GNU_SOURCE
#include "gcits_standin.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static OopType wait_result(GciSession s, GciErrSType *err) {
    if (GciTsNbPoll(s, -1, err) != 1) return OOP_ILLEGAL;
    return GciTsNbResult(s, err);
}

int main(void) {
    GciErrSType err;
    BoolType init;
    enum { LOGINS = 100, CALLS = 5000 };
    double t0 = now_ms();
    for (int i = 0; i < LOGINS; i++) {
        GciSession s = GciTsLogin("gs64stone", NULL, NULL, 0, NULL, "DataCurator", "swordfish", 0, 0, &init, &err);
        if (s == NULL) {
            printf("login failed: %d %s\n", err.number, err.message);
            return 1;
        }
        GciTsLogout(s, &err);
    }
    printf("login+logout:                     %8.2f ms each (%d cycles)\n", (now_ms() - t0) / LOGINS, LOGINS);

    GciSession s = GciTsLogin("gs64stone", NULL, NULL, 0, NULL, "DataCurator", "swordfish", 0, 0, &init, &err);
    OopType sys = GciTsResolveSymbol(s, "System", OOP_NIL, &err);
    t0 = now_ms();
    for (int i = 0; i < CALLS; i++) {
        GciTsNbPerform(s, sys, OOP_ILLEGAL, "session", NULL, 0, 0, 0, &err);
        wait_result(s, &err);
    }
    printf("System session round trip:        %8.1f us (%d calls)\n", (now_ms() - t0) * 1000 / CALLS, CALLS);

    const char *cfg = "{\"contract\":1,\"workerClass\":\"McpServer\",\"protocolVersions\":[\"2025-11-25\"],"
                      "\"cacheName\":\"c\",\"resultCap\":0,\"frontEnd\":{\"name\":\"b\",\"version\":\"0\",\"routerId\":\"b\"}}";
    OopType cls = GciTsResolveSymbol(s, "McpServer", OOP_NIL, &err);
    OopType arg = GciTsNewString(s, cfg, &err);
    GciTsNbPerform(s, cls, OOP_ILLEGAL, "mcpPrepare:", &arg, 1, 0, 0, &err);
    wait_result(s, &err);
    GciTsReleaseAllObjs(s, &err);
    const char *msg = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"hello\"}}}";
    t0 = now_ms();
    for (int i = 0; i < CALLS; i++) {
        OopType m = GciTsNewString_(s, msg, strlen(msg), &err);
        GciTsNbPerform(s, cls, OOP_ILLEGAL, "mcpHandle:", &m, 1, 0, 0, &err);
        OopType r = wait_result(s, &err);
        unsigned char buf[4096];
        GciTsFetchBytes(s, r, 1, buf, sizeof buf, &err);
        OopType done[2] = {m, r};
        GciTsReleaseObjs(s, done, 2, &err);
    }
    printf("mcpHandle: echo round trip:       %8.1f us (%d calls; new string, perform, poll, result, fetch, release)\n",
           (now_ms() - t0) * 1000 / CALLS, CALLS);
    GciTsLogout(s, &err);
    return 0;
}
