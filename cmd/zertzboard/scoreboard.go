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
	"github.com/zertzboard/zertzboard/internal/cli"
	"github.com/zertzboard/zertzboard/scoreboard"
)

func init() {
	register(command{Name: "scoreboard", Summary: "the live scoreboard and stream overlay in a browser, from an MQTT broker", Run: runScoreboard})
}

func runScoreboard(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("scoreboard", "--broker URL [--http ADDR] [--username U --password P] [--results DIR] [--console=false]", helpText("scoreboard"), stderr)
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
	log := cli.Logger(stderr, slog.LevelInfo, *verbose, false)
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
