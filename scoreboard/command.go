package scoreboard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/zertzboard/zertzboard/broker"
	"github.com/zertzboard/zertzboard/internal/cli"
)

// Synopsis is the scoreboard command's synopsis, for its usage.
const Synopsis = "--broker URL [--http ADDR] [--username U --password P] [--results DIR] [--console=false]"

// Main is program p's "scoreboard" command: the scoreboard on its own
// (RunStandalone), its configuration read from the flags in args, until
// ctx is done or an interrupt or SIGTERM comes. It returns the exit code:
// cli.ExitUsage for a flag it cannot use (the message names it),
// cli.ExitFault when the scoreboard fails.
func Main(ctx context.Context, p *cli.Program, args []string, stdout, stderr io.Writer) int {
	fs := p.FlagSet("scoreboard", Synopsis, p.HelpText("scoreboard"), stderr)
	brokerURL := fs.String("broker", "tcp://127.0.0.1:1883", "the MQTT broker's URL (tcp://, ssl://, ws://, wss://)")
	httpAddr := fs.String("http", "127.0.0.1:8080", "the web pages' address")
	username := fs.String("username", "", "the MQTT user name (none: an anonymous viewer)")
	password := fs.String("password", "", "the MQTT password")
	prefix := fs.String("prefix", broker.DefaultPrefix, "the root of the boards' topics")
	results := fs.String("results", "", "keep finished games in this directory (default: in memory only)")
	console := fs.Bool("console", true, "serve the arbiter console (/console), logging operators in against --broker")
	halls := Halls{}
	fs.Var(halls, "hall", "NAME:ID,ID,…: a hall bridged to the broker and its boards, shown as \"hall unreachable\" while its bridge is down (repeat for each hall)")
	var proxies Proxies
	fs.Var(&proxies, "proxy", "IP: a reverse proxy in front (nginx), whose connections are not limited per address (repeat for each)")
	verbose := fs.Bool("v", false, "log debug detail")
	if code, ok := cli.ParseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return p.Failer("scoreboard", stderr)("unexpected argument %q", fs.Arg(0))
	}
	log := cli.Logger(stderr, slog.LevelInfo, *verbose, false)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := StandaloneConfig{HTTP: *httpAddr, Prefix: *prefix, Results: *results, Console: *console, Halls: halls, Proxies: proxies,
		MQTT: MQTTConfig{Broker: *brokerURL, Username: *username, Password: *password}, Logger: log}
	err := RunStandalone(ctx, cfg, func(httpURL string) {
		fmt.Fprintf(stdout, "%s scoreboard: following %s\n  web    %s\nPress Ctrl-C to stop.\n", p.Name, *brokerURL, httpURL)
	})
	var usage ConfigError
	switch {
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "%s scoreboard: %s\n", p.Name, p.ErrText(err))
		return cli.ExitUsage
	case err != nil:
		fmt.Fprintf(stderr, "%s scoreboard: %s\n", p.Name, p.ErrText(err))
		return cli.ExitFault
	}
	return cli.ExitOK
}
