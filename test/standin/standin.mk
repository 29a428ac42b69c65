# The GCI test stand-in (test/standin): a libgcits with GemStone's C ABI whose gems are
# processes of test/standin/gem. NOT GemStone; it exists only to test the Go side.
#
#   make standin        builds $(STANDIN_HOME) laid out like a GemStone product directory
#                       (lib/libgcits-V-64.so, lib/libnetldi-V-64.so, bin/standin-gem), the
#                       broken variant build/standin-broken (no GciTsNbPerform), and the C checks
#   make standin-test   runs the C checks against the stand-in
#   make standin-bench  prints the stand-in's own figures (login, round trips); not a test

STANDIN_SRC        := test/standin
STANDIN_LIBDIR     := $(STANDIN_HOME)/lib
STANDIN_LIB        := $(STANDIN_LIBDIR)/libgcits-$(STANDIN_VERSION)-64.so
STANDIN_NETLDI     := $(STANDIN_LIBDIR)/libnetldi-$(STANDIN_VERSION)-64.so
STANDIN_GEM        := $(STANDIN_HOME)/bin/standin-gem
STANDIN_BROKEN     := $(CURDIR)/build/standin-broken
STANDIN_BROKEN_LIB := $(STANDIN_BROKEN)/lib/libgcits-$(STANDIN_VERSION)-64.so
STANDIN_BROKEN_NET := $(STANDIN_BROKEN)/lib/libnetldi-$(STANDIN_VERSION)-64.so
STANDIN_CHECKS     := $(CURDIR)/build/standin-checks
STANDIN_CC         ?= gcc
STANDIN_CFLAGS     := -std=gnu11 -O2 -g -Wall -Wextra -Werror -fPIC -fvisibility=hidden -pthread

STANDIN_LIB_SRCS := $(STANDIN_SRC)/api.c $(STANDIN_SRC)/session.c
STANDIN_HDRS     := $(STANDIN_SRC)/gcits_standin.h $(STANDIN_SRC)/standin_internal.h
STANDIN_GO_SRCS  := $(filter-out %_test.go,$(wildcard $(STANDIN_SRC)/gem/*.go $(STANDIN_SRC)/gemproto/*.go worker/workertest/fixtureworker/*.go))

.PHONY: standin standin-test standin-bench
standin: $(STANDIN_LIB) $(STANDIN_NETLDI) $(STANDIN_GEM) $(STANDIN_BROKEN_LIB) $(STANDIN_BROKEN_NET) \
	$(STANDIN_CHECKS)/smoke $(STANDIN_CHECKS)/loadcheck $(STANDIN_CHECKS)/bench

# libgcits is linked WITHOUT libnetldi: HostCreateThread stays an undefined reference, so
# the library loads only after libnetldi was loaded RTLD_GLOBAL, as GemStone's does.
$(STANDIN_LIB): $(STANDIN_LIB_SRCS) $(STANDIN_HDRS) $(STANDIN_SRC)/standin.mk
	@mkdir -p $(dir $@)
	$(STANDIN_CC) $(STANDIN_CFLAGS) -shared -Wl,-soname,$(notdir $@) -o $@ $(STANDIN_LIB_SRCS) -ldl

$(STANDIN_BROKEN_LIB): $(STANDIN_LIB_SRCS) $(STANDIN_HDRS) $(STANDIN_SRC)/standin.mk
	@mkdir -p $(dir $@)
	$(STANDIN_CC) $(STANDIN_CFLAGS) -DSTANDIN_OMIT_NBPERFORM -shared -Wl,-soname,$(notdir $@) -o $@ $(STANDIN_LIB_SRCS) -ldl

$(STANDIN_NETLDI) $(STANDIN_BROKEN_NET): $(STANDIN_SRC)/netldi.c $(STANDIN_SRC)/standin.mk
	@mkdir -p $(dir $@)
	$(STANDIN_CC) $(STANDIN_CFLAGS) -shared -Wl,-soname,$(notdir $@) -o $@ $(STANDIN_SRC)/netldi.c

$(STANDIN_GEM): $(STANDIN_GO_SRCS)
	@mkdir -p $(dir $@)
	CGO_ENABLED=0 $(GO) build -o $@ ./$(STANDIN_SRC)/gem

$(STANDIN_CHECKS)/smoke: $(STANDIN_SRC)/checks/smoke.c $(STANDIN_SRC)/gcits_standin.h $(STANDIN_LIB) $(STANDIN_NETLDI)
	@mkdir -p $(dir $@)
	$(STANDIN_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -pthread -I$(STANDIN_SRC) -o $@ $< \
		-L$(STANDIN_LIBDIR) -l:$(notdir $(STANDIN_LIB)) -l:$(notdir $(STANDIN_NETLDI)) -Wl,-rpath,$(STANDIN_LIBDIR)

$(STANDIN_CHECKS)/bench: $(STANDIN_SRC)/checks/bench.c $(STANDIN_SRC)/gcits_standin.h $(STANDIN_LIB) $(STANDIN_NETLDI)
	@mkdir -p $(dir $@)
	$(STANDIN_CC) -std=gnu11 -O2 -Wall -Wextra -Werror -I$(STANDIN_SRC) -o $@ $< \
		-L$(STANDIN_LIBDIR) -l:$(notdir $(STANDIN_LIB)) -l:$(notdir $(STANDIN_NETLDI)) -Wl,-rpath,$(STANDIN_LIBDIR)

$(STANDIN_CHECKS)/loadcheck: $(STANDIN_SRC)/checks/loadcheck.c
	@mkdir -p $(dir $@)
	$(STANDIN_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -o $@ $< -ldl

standin-test: standin
	$(STANDIN_CHECKS)/loadcheck $(STANDIN_LIBDIR) $(STANDIN_BROKEN)/lib $(STANDIN_VERSION)
	rm -rf $(STANDIN_CHECKS)/sessions && GCI_STANDIN_DIR=$(STANDIN_CHECKS)/sessions $(STANDIN_CHECKS)/smoke

standin-bench: standin
	rm -rf $(STANDIN_CHECKS)/bench-sessions && GCI_STANDIN_DIR=$(STANDIN_CHECKS)/bench-sessions $(STANDIN_CHECKS)/bench

TEST_STEPS += standin-test
