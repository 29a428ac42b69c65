! What bin/gsmodel -test files in after smalltalk/core/load.gs and smalltalk/tests/load.gs: the
! optional groups a base install leaves out, each with the test double of what it needs that the
! model does not have. Never input on a real stone (install.sh and run-unit-tests.sh do not).
! Run from the repository root.
!
! ------------------- The optional Grail toolset, against the test double of Grail's API
input smalltalk/tests/grail/double/load.gs
input smalltalk/grail/load.gs
input smalltalk/tests/grail/load.gs
input smalltalk/tests/grail/model/load.gs
