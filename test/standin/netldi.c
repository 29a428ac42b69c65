/* The GCI TEST STAND-IN's libnetldi: only HostCreateThread, which the stand-in libgcits
 * references undefined, so that a binding must load this library with RTLD_GLOBAL first,
 * exactly as with GemStone's libraries. NOT GemStone. */
#include <pthread.h>

__attribute__((visibility("default"))) int HostCreateThread(void *(*start)(void *), void *arg) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, start, arg);
    pthread_attr_destroy(&attr);
    return rc;
}
