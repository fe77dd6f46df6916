package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/zertzboard/zertzboard/board"
	"github.com/zertzboard/zertzboard/config"
	"github.com/zertzboard/zertzboard/internal/cli"
)

func init() {
	register(command{Name: "run", Summary: "the controller on a Raspberry Pi's real hardware", Run: runRun})
}

func runRun(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run", "--config FILE", helpText("run"), stderr)
	path := fs.String("config", "/etc/zertzboard/zertzboard.conf", "the configuration file")
	verbose := fs.Bool("v", false, "log debug detail")
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "zertzboard run: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := config.Load(*path)
	if err != nil {
		fmt.Fprintf(stderr, "zertzboard run: %v\n", err)
		return exitUsage
	}
	log := cli.Logger(stderr, slog.LevelInfo, *verbose, true)
	if err := runDaemon(cfg, log, stderr, *verbose); err != nil {
		fmt.Fprintf(stderr, "zertzboard run: %v\n", err)
		return exitFault
	}
	return exitOK
}

// runDaemon opens the Pi's hardware from cfg and runs the board.
func runDaemon(cfg *config.Config, log *slog.Logger, stderr io.Writer, verbose bool) error {
	r, cal, err := board.OpenHardware(cfg)
	if err != nil {
		return err
	}
	defer r.Close()
	log.Info("hardware", "pi", r.Report.Model.Title, "scan-rate", r.Report.Rate.String(), "scan", r.Report.Scan.Mean.String(), "ioctls-per-scan", r.Report.Scan.Ioctls)
	bc := board.FromFile(cfg, r.Devices, cal, log)
	bc.BrokerLog = board.BrokerLogger(stderr, verbose)
	return board.Run(context.Background(), bc)
}
