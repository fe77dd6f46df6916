package main

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
	"github.com/zertzboard/zertzboard/scoreboard"
)

func init() {
	register(command{name: "scoreboard", summary: "the live scoreboard and stream overlay in a browser, from an MQTT broker", run: runScoreboard})
}

const scoreboardAbout = `
Serves the live scoreboard: every board on the broker, and each board's
game drawn live (the position, the last move, compulsory captures, illegal
boards, captures toward the winning sets, the moves). It subscribes to
<prefix>+/state, status, events and moves, and pushes each change to the
browsers at once (server-sent events). Everything it serves is built in:
it works without Internet access.

Pages (each fits a phone, a tablet or a desktop, in a light or dark theme
as the system prefers):
  /                 every board seen, with players, captures and status, and
                    a QR code of the scoreboard's address for spectators
  /board/ID         one board; ← steps back through its game, L returns to live
  ?overlay=1        on any page: transparent and compact, for OBS browser sources;
                    with layout=full|board|panel|lowerthird, scale=0.5…3,
                    analysis=0 (no forced-win line), clocks=0, e.g.
                    /board/t1?layout=lowerthird&scale=1.5
  /watch            a printable "watch live" card with that QR code
  /console          the arbiter console: log in with an operator account of
                    the broker; every board's players, clocks and alerts, and
                    actions (new game, pause, resume, take-back answers,
                    results, added time) sent as the boards' cmd/ commands
  /results          every finished game; /results.csv, /results.zip (every
                    record, SGF and JSON), /results/GAME.sgf and .json
  /results/GAME     step through a finished game (buttons, arrow keys, a
                    slider, its moves), with the forced-win analysis of each
                    position and the turns that missed a forced win on request
  /board/ID/record.sgf, record.json   the board's current game

Bridged halls: when hall brokers bridge to the broker followed (see
docs/HALL.md), --hall NAME:ID,… names each hall's boards; while that hall's
bridge says it is down ($SYS/broker/connection/NAME/state is 0) they show
as "hall unreachable", their last state kept and their clocks stopped.

Behind a reverse proxy (docs/HALL.md has nginx's configuration), --proxy IP
lifts the per-address connection limit for the proxy's address.

Anonymous viewers may watch on zertzboard's embedded broker; give
--username and --password for a broker that wants them.

Finished games are kept in memory; --results DIR keeps them on disk too, so
a restart loses none.

Examples:
  zertzboard scoreboard --broker tcp://127.0.0.1:1883
  zertzboard scoreboard --broker tcp://hall.local:1883 --username scoreboard --password … --results /var/lib/zertzboard/results --http :8080
  zertzboard scoreboard --broker ws://table-1.local:8083/ --http :8080
  zertzboard scoreboard --broker tcp://centre:1883 --hall hall-a:a1,a2 --hall hall-b:b1 --proxy 127.0.0.1`

func runScoreboard(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("scoreboard", "--broker URL [--http ADDR] [--username U --password P] [--results DIR] [--console=false]", scoreboardAbout, stderr)
	brokerURL := fs.String("broker", "tcp://127.0.0.1:1883", "the MQTT broker's URL (tcp://, ssl://, ws://, wss://)")
	httpAddr := fs.String("http", "127.0.0.1:8080", "the web pages' address")
	username := fs.String("username", "", "the MQTT user name (none: an anonymous viewer)")
	password := fs.String("password", "", "the MQTT password")
	prefix := fs.String("prefix", broker.DefaultPrefix, "the root of the boards' topics")
	results := fs.String("results", "", "keep finished games in this directory (default: in memory only)")
	console := fs.Bool("console", true, "serve the arbiter console (/console), logging operators in against --broker")
	halls := scoreboard.Halls{}
	fs.Var(halls, "hall", "NAME:ID,ID,…: a hall bridged to the broker and its boards, shown as \"hall unreachable\" while its bridge is down (repeat for each hall)")
	var proxies scoreboard.Proxies
	fs.Var(&proxies, "proxy", "IP: a reverse proxy in front (nginx), whose connections are not limited per address (repeat for each)")
	verbose := fs.Bool("v", false, "log debug detail")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zertzboard scoreboard: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg := scoreboard.StandaloneConfig{HTTP: *httpAddr, Prefix: *prefix, Results: *results, Console: *console, Halls: halls, Proxies: proxies,
		MQTT: scoreboard.MQTTConfig{Broker: *brokerURL, Username: *username, Password: *password}, Logger: log}
	err := scoreboard.RunStandalone(ctx, cfg, func(httpURL string) {
		fmt.Fprintf(stdout, "zertzboard scoreboard: following %s\n  web    %s\nPress Ctrl-C to stop.\n", *brokerURL, httpURL)
	})
	var usage scoreboard.ConfigError
	switch {
	case errors.As(err, &usage):
		fmt.Fprintf(stderr, "zertzboard scoreboard: %s\n", errText(err))
		return exitUsage
	case err != nil:
		fmt.Fprintf(stderr, "zertzboard scoreboard: %s\n", errText(err))
		return exitFault
	}
	return exitOK
}
