! A group loader that misses a file of its directory and names one that does not exist.
input internal/gscheck/testdata/broken/layout/FxA.gs
input internal/gscheck/testdata/broken/layout/FxWrongName.gs
input internal/gscheck/testdata/broken/layout/FxNoSuchFile.gs
