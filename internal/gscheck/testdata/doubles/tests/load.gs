input FxUserTest.gs
