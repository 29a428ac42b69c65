/* Checks how the stand-in's libraries load, as a binding will load them: libgcits alone must
 * fail on HostCreateThread; after libnetldi with RTLD_GLOBAL it loads; the broken variant
 * lacks GciTsNbPerform. Usage: loadcheck <libdir> <broken-libdir> <version> */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int ok, const char *what) {
    printf("%s: %s\n", ok ? "ok  " : "FAIL", what);
    if (!ok) failures++;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s <libdir> <broken-libdir> <version>\n", argv[0]);
        return 2;
    }
    char gcits[4096], netldi[4096], broken[4096], broken_net[4096];
    snprintf(gcits, sizeof gcits, "%s/libgcits-%s-64.so", argv[1], argv[3]);
    snprintf(netldi, sizeof netldi, "%s/libnetldi-%s-64.so", argv[1], argv[3]);
    snprintf(broken, sizeof broken, "%s/libgcits-%s-64.so", argv[2], argv[3]);
    snprintf(broken_net, sizeof broken_net, "%s/libnetldi-%s-64.so", argv[2], argv[3]);

    void *alone = dlopen(gcits, RTLD_NOW | RTLD_LOCAL);
    const char *why = alone ? "" : dlerror();
    check(alone == NULL && strstr(why, "HostCreateThread") != NULL,
          "libgcits alone with RTLD_NOW fails naming HostCreateThread");

    void *net = dlopen(netldi, RTLD_NOW | RTLD_GLOBAL);
    check(net != NULL && dlsym(net, "HostCreateThread") != NULL, "libnetldi loads and exports HostCreateThread");
    void *lib = dlopen(gcits, RTLD_NOW | RTLD_LOCAL);
    check(lib != NULL, "libgcits loads after libnetldi with RTLD_GLOBAL");
    const char *needed[] = {"GciTsVersion", "GciTsLogin", "GciTsNbLogin", "GciTsNbLoginFinished",
                            "GciTsLogout", "GciTsNbLogout", "GciTsSocket", "GciTsCallInProgress",
                            "GciTsNbPerform", "GciTsNbExecute", "GciTsNbPoll", "GciTsNbResult",
                            "GciTsBreak", "GciTsClearStack", "GciTsAbort", "GciTsBegin", "GciTsCommit",
                            "GciTsNewString_", "GciTsNewString", "GciTsNewUtf8String_", "GciTsNewByteArray",
                            "GciTsNewSymbol", "GciTsResolveSymbol", "GciTsResolveSymbolObj", "GciTsFetchSize",
                            "GciTsFetchClass", "GciTsFetchBytes", "GciTsReleaseObjs", "GciTsReleaseAllObjs",
                            "GciTsOopToI64", "GciTsI64ToOop", "GciTsEncrypt", "GciStandinExportCount"};
    int all = lib != NULL;
    for (size_t i = 0; lib && i < sizeof needed / sizeof needed[0]; i++) {
        if (dlsym(lib, needed[i]) == NULL) {
            printf("      missing %s\n", needed[i]);
            all = 0;
        }
    }
    check(all, "libgcits exports every GciTs* function the binding binds");
    check(lib == NULL || dlsym(lib, "session_acquire") == NULL, "internal functions are not exported");

    void *bnet = dlopen(broken_net, RTLD_NOW | RTLD_GLOBAL);
    void *blib = dlopen(broken, RTLD_NOW | RTLD_LOCAL);
    check(bnet != NULL && blib != NULL, "the broken variant loads");
    check(blib != NULL && dlsym(blib, "GciTsNbPerform") == NULL && dlsym(blib, "GciTsNbExecute") != NULL,
          "the broken variant lacks GciTsNbPerform and only it");
    printf("%s\n", failures ? "loadcheck: FAILED" : "loadcheck: all passed");
    return failures ? 1 : 0;
}
