input FxFakeApi.gs
run
UserGlobals at: #RealApi put: FxFakeApi.
true
%
