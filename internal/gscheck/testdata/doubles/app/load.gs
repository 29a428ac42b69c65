input FxUser.gs
