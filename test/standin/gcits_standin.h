/* The C declarations of the GCI TEST STAND-IN's libgcits: the subset of GemStone's gcits.hf
 * the Go binding calls, with the real signatures and the real GciErrSType layout
 * (/work/shared/ref/gci-ts.md sections 2-4). The stand-in is NOT GemStone; see README.md. */
#ifndef GCITS_STANDIN_H
#define GCITS_STANDIN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef int BoolType;
typedef uint64_t OopType;
typedef unsigned char ByteType;
typedef int64_t int64;
typedef unsigned short ushort;
typedef void *GciSession;

#define GCI_ERR_STR_SIZE 1024
#define GCI_ERR_reasonSize 1024
#define GCI_MAX_ERR_ARGS 10

typedef struct GciErrSType {
    OopType category;
    OopType context;
    OopType exceptionObj;
    OopType args[GCI_MAX_ERR_ARGS];
    int number;
    int argCount;
    unsigned char fatal;
    char message[GCI_ERR_STR_SIZE + 1];
    char reason[GCI_ERR_reasonSize + 1];
} GciErrSType;

#define OOP_ILLEGAL ((OopType)0x01)
#define OOP_NIL ((OopType)0x14)
#define OOP_FALSE ((OopType)0x0C)
#define OOP_TRUE ((OopType)0x10C)
#define OOP_CLASS_STRING ((OopType)74753)
#define OOP_CLASS_Utf8 ((OopType)154113)
#define OOP_CLASS_BYTE_ARRAY ((OopType)103425)
#define OOP_CLASS_SYMBOL ((OopType)110849)
#define OOP_CLASS_SMALL_INTEGER ((OopType)74241)
#define OOP_CLASS_LargeInteger ((OopType)136193)
#define OOP_CLASS_Unicode7 ((OopType)154369)
#define OOP_CLASS_GSPROCESS ((OopType)134657)
#define OOP_GEMSTONE_ERROR_CAT ((OopType)231169)

#define GCI_LOGIN_PW_ENCRYPTED 0x1
#define GCI_LOGIN_IS_SUBORDINATE 0x2
#define GCI_LOGIN_QUIET 0x10
#define GCI_LOGIN_CLIENT_DOES_SESSION_INIT 0x20
#define GCI_LOGIN_ONETIME_PASSWORD 0x400
#define GCI_LOGIN_JWT_PASSWORD 0x800

unsigned GciTsVersion(char *buf, size_t bufSize);
GciSession GciTsLogin(const char *stoneNrs, const char *hostUserId, const char *hostPassword,
                      BoolType hostPwIsEncrypted, const char *gemServiceNrs, const char *gsUser,
                      const char *gsPassword, unsigned int loginFlags, int haltOnErrNum,
                      BoolType *executedSessionInit, GciErrSType *err);
GciSession GciTsNbLogin(const char *stoneNrs, const char *hostUserId, const char *hostPassword,
                        BoolType hostPwIsEncrypted, const char *gemServiceNrs, const char *gsUser,
                        const char *gsPassword, unsigned int loginFlags, int haltOnErrNum,
                        int *loginPollSocket);
int GciTsNbLoginFinished(GciSession sess, BoolType *executedSessionInit, GciErrSType *err);
BoolType GciTsLogout(GciSession sess, GciErrSType *err);
BoolType GciTsNbLogout(GciSession sess, GciErrSType *err);
int GciTsSocket(GciSession sess, GciErrSType *err);
int GciTsSessionIsRemote(GciSession sess);
int GciTsCallInProgress(GciSession sess, GciErrSType *err);
BoolType GciTsNbPerform(GciSession sess, OopType receiver, OopType aSymbol, const char *selectorStr,
                        const OopType *args, int numArgs, int flags, ushort environmentId,
                        GciErrSType *err);
BoolType GciTsNbExecute(GciSession sess, const char *sourceStr, OopType sourceOop,
                        OopType contextObject, OopType symbolList, int flags,
                        ushort environmentId, GciErrSType *err);
OopType GciTsPerform(GciSession sess, OopType receiver, OopType aSymbol, const char *selectorStr,
                     const OopType *args, int numArgs, int flags, ushort environmentId,
                     GciErrSType *err);
OopType GciTsExecute(GciSession sess, const char *sourceStr, OopType sourceOop,
                     OopType contextObject, OopType symbolList, int flags, ushort environmentId,
                     GciErrSType *err);
int GciTsNbPoll(GciSession sess, int timeoutMs, GciErrSType *err);
OopType GciTsNbResult(GciSession sess, GciErrSType *err);
BoolType GciTsBreak(GciSession sess, BoolType hard, GciErrSType *err);
BoolType GciTsClearStack(GciSession sess, OopType gsProcess, GciErrSType *err);
BoolType GciTsAbort(GciSession sess, GciErrSType *err);
BoolType GciTsBegin(GciSession sess, GciErrSType *err);
BoolType GciTsCommit(GciSession sess, GciErrSType *err);
OopType GciTsNewString(GciSession sess, const char *cString, GciErrSType *err);
OopType GciTsNewString_(GciSession sess, const char *bytes, size_t nBytes, GciErrSType *err);
OopType GciTsNewUtf8String(GciSession sess, const char *utf8, BoolType convertToUnicode,
                           GciErrSType *err);
OopType GciTsNewUtf8String_(GciSession sess, const char *utf8, size_t nBytes,
                            BoolType convertToUnicode, GciErrSType *err);
OopType GciTsNewByteArray(GciSession sess, ByteType *body, size_t numBytes, GciErrSType *err);
OopType GciTsNewSymbol(GciSession sess, const char *cString, GciErrSType *err);
OopType GciTsResolveSymbol(GciSession sess, const char *name, OopType symbolList, GciErrSType *err);
OopType GciTsResolveSymbolObj(GciSession sess, OopType symbol, OopType symbolList,
                              GciErrSType *err);
int64 GciTsFetchSize(GciSession sess, OopType obj, GciErrSType *err);
OopType GciTsFetchClass(GciSession sess, OopType obj, GciErrSType *err);
int64 GciTsFetchBytes(GciSession sess, OopType obj, int64 startIndex, ByteType *dest,
                      int64 numBytes, GciErrSType *err);
BoolType GciTsReleaseObjs(GciSession sess, OopType *buf, int count, GciErrSType *err);
BoolType GciTsReleaseAllObjs(GciSession sess, GciErrSType *err);
BoolType GciTsOopToI64(GciSession sess, OopType oop, int64 *result, GciErrSType *err);
OopType GciTsI64ToOop(GciSession sess, int64 arg, GciErrSType *err);
char *GciTsEncrypt(const char *password, char *outBuf, size_t outBufSize);

/* Stand-in only, not part of GemStone's API: the number of objects in the session's export
 * table (strings made by GciTsNew*, results, error contexts), or -1. */
int64 GciStandinExportCount(GciSession sess);

/* In libnetldi (the stand-in's copy): starts a detached thread. libgcits calls it, so that it
 * has the same undefined reference to HostCreateThread as GemStone's. */
int HostCreateThread(void *(*start)(void *), void *arg);

#endif
