package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rs/zerolog"

	"github.com/gemstone-mcp/mcp-gemstone/gemstone"
	"github.com/gemstone-mcp/mcp-gemstone/internal/config"
	"github.com/gemstone-mcp/mcp-gemstone/worker"
	"github.com/gemstone-mcp/mcp-gemstone/worker/gciworker"
)

// A restricted worker user (docs/read-only-user.md): when MCP_WORKER_USER is not the control
// session's user, the router holds no password for it. Every worker login uses a one-time
// password the control session mints, and the server checks the grant once at startup.

// grantCheckTimeout bounds the startup check, control session login included, so that a stone
// that does not answer delays the start by at most this much.
const grantCheckTimeout = 30 * time.Second

// oneTimeUser is the user worker gems log in as with minted one-time passwords, or "" when they
// log in with the configured password. Only a worker user that was given and is not the
// control user is one: the default DataCurator keeps the plain login it always had, and the
// network-facing mode, which refuses MCP_WORKER_USER, logs workers in with tokens.
func oneTimeUser(cfg *config.Config) string {
	if !cfg.WorkerUserSet || cfg.WorkerUser == cfg.ControlUser {
		return ""
	}
	return cfg.WorkerUser
}

// checkWorkerUser is the startup check of a restricted worker user. It answers the exit code
// that refuses the start, or 0 to go on:
//   - a user id that cannot be put into the mint source refuses the start (2);
//   - a stone that refuses the mint (the grant is missing) refuses the start (1), with the
//     command that fixes it in the log;
//   - a stone that cannot be reached only warns: the mint is tried again at every session, as
//     the control session's login is.
func checkWorkerUser(cfg *config.Config, lib *gemstone.Library, control worker.Control, log zerolog.Logger) int {
	user := oneTimeUser(cfg)
	if user == "" {
		return 0
	}
	if err := gciworker.CheckUserID(user); err != nil {
		log.Error().Str("workerUser", user).Msg(fmt.Sprintf("refusing to start: MCP_WORKER_USER %q differs from GS_USER %q, so workers log in with one-time passwords, "+
			"which are minted only for a user id of letters, digits and _ that starts with a letter", user, cfg.ControlUser))
		return 2
	}
	if lib == nil || lib.Err() != nil {
		return 0 // the missing library is reported already; every session will fail on it
	}
	ctx, cancel := context.WithTimeout(context.Background(), grantCheckTimeout)
	defer cancel()
	err := gciworker.CheckOneTimeGrant(ctx, control, user)
	var refused *gciworker.OneTimeLoginError
	switch {
	case err == nil:
		log.Info().Str("workerUser", user).Str("controlUser", cfg.ControlUser).
			Msg("worker gems log in as the worker user with one-time passwords the control session mints (checked: the grant is in place)")
		return 0
	case errors.As(err, &refused):
		log.Error().Err(err).Str("workerUser", user).Str("controlUser", cfg.ControlUser).
			Msg("refusing to start: the control session may not mint one-time passwords for the worker user; run ./setup-read-only-user.sh " +
				"(MCP_RO_USER=" + user + ", as GS_USER=" + cfg.ControlUser + "), or unset MCP_WORKER_USER")
		return 1
	default:
		log.Warn().Err(err).Str("workerUser", user).
			Msg("could not check the one-time-password grant for the worker user (the control session could not run the check); starting anyway, and every session will try the mint again")
		return 0
	}
}
