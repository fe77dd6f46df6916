package referee_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/zertzboard/zertzboard/engine"
	"github.com/zertzboard/zertzboard/internal/samples"
	"github.com/zertzboard/zertzboard/record"
	"github.com/zertzboard/zertzboard/referee"
	"github.com/zertzboard/zertzboard/sim/players"
)

// The exams: every sample game played onto a simulated board under a
// condition that hides part of what happened from the referee, refereed,
// and the questions it asks answered from the record, as the players who
// played the game would answer them. In every game the referee must
// follow the game to its last turn, commit no wrong turn without asking
// about it, and name the record's winner.
//
// The conditions:
//   - stalls: the scan stalls every 2 s on average, for 150 to 600 ms,
//     while the hands go on;
//   - 10hz: the board is scanned 10 times a second instead of 200;
//   - dead: from the middle of the game, one socket reads '?' for ever
//     (a failed Hall sensor, a loose wire);
//   - stuck: from the middle of the game, one socket reads whatever it
//     read then, for ever;
//   - starved: the hall's boards on a starved machine (see below).

type examCondition struct {
	name string
	opt  func(o *players.Options, rep *record.Replay, half int64)
	// floor is what the referee achieves today where it does not yet pass
	// the exam whole (docs/RULES.md says which): the share of games it
	// must follow to the end, in per cent, and the wrong turns and
	// winners per 100 games it may commit. Zero is the exam itself.
	floorFollowed, floorWrong, floorWinners int
}

var examConditions = []examCondition{
	{"starved", func(o *players.Options, _ *record.Replay, _ int64) {
		// The hall's boards on a starved machine: hands at 20 times
		// human speed (TestHall's), a 150 ms settle, and scans that stall
		// twice a second for up to 600 ms: whole turns go unseen.
		o.Speed, o.SettleMS, o.ScanMS, o.Stalls, o.StallMS = 20, 150, 10, 0.02, 600
	}, 90, 0, 0},
	{"stalls", func(o *players.Options, _ *record.Replay, _ int64) {
		o.ScanMS, o.Stalls, o.StallMS = 10, 10.0/2000, 600
	}, 100, 0, 0},
	{"10hz", func(o *players.Options, _ *record.Replay, _ int64) {
		o.ScanMS = 100
	}, 100, 0, 0},
	{"dead", func(o *players.Options, rep *record.Replay, half int64) {
		o.ScanMS = 10
		o.Dead, o.DeadCell, o.DeadFromMS, o.DeadReading = true, examCell(rep), half, '?'
	}, 100, 0, 0},
	{"stuck", func(o *players.Options, rep *record.Replay, half int64) {
		o.ScanMS = 10
		o.Dead, o.DeadCell, o.DeadFromMS, o.DeadReading = true, examCell(rep), half, 0
	}, 100, 0, 0},
}

// examCell is the socket that fails: the ring of the first placement in
// the second half of the game, so that the failed sensor hides a turn.
func examCell(rep *record.Replay) engine.Cell {
	n := rep.Game.Len()
	for i := n / 2; i < n; i++ {
		if tn, _ := rep.Game.Turn(i); tn.Kind == engine.Place {
			return tn.At
		}
	}
	return 0
}

// examResult is one game's outcome under one condition.
type examResult struct {
	game, cond   string
	turns        int  // the record's
	followed     bool // the referee's game is the record's at the end
	wrong        int  // turns committed that were not the record's, and never asked about
	askedLater   int  // turns committed that were not the record's, asked about later
	wrongWinner  bool
	questions    int
	unanswerable int // questions none of whose options was the record's
	tooMany      int // questions offering more than 24 options
	detail       string
}

// sitExam plays one game under one condition.
func sitExam(file string, rec *record.Record, rep *record.Replay, cond examCondition, seed uint64) examResult {
	res := examResult{game: filepath.Base(file), cond: cond.name, turns: rep.Game.Len()}
	start := rep.Game.Start()
	b := start.Board()
	opt := players.DefaultOptions
	opt.Seed = seed
	// Turns made and taken back are real turns the referee must commit,
	// which no record has: the exams leave them to the other tests.
	opt.Takebacks = 0
	// How long the game takes, to fail a sensor half way.
	plain, err := players.Play(start, rec.Turns, opt, func(int64, []byte) error { return nil })
	if err != nil {
		res.detail = err.Error()
		return res
	}
	cond.opt(&opt, rep, plain.DurationMS/2)
	// The players answer from the turns they have begun.
	begun := 0
	opt.Begin = func(i int) { begun = i + 1 }
	ref, err := referee.New(referee.Config{Board: b, Rules: start.Rules(), First: rec.First})
	if err != nil {
		res.detail = err.Error()
		return res
	}
	record := func(i int) string {
		tn, _ := rep.Game.Turn(i)
		return engine.FormatTurn(b, tn)
	}
	// check counts the committed turns that are not the record's, unless
	// they came with a question (provisional) or an answer.
	//
	// A wrong turn that a later question covers (the question is about
	// the turns from its Turn on: a stuck sensor is found only once the
	// boards contradict it) counts as asked about, and apart.
	var wrongTurns []int
	var wrongDetail []string
	check := func(ev []referee.Event, asked bool) {
		// A question covers the turns from its Turn on: a turn committed
		// beside it but before it was not asked about.
		from := 0
		for _, e := range ev {
			if q, ok := e.Body.(referee.Question); ok {
				if !asked || q.Turn < from {
					from = q.Turn
				}
				asked = true
				k := 0
				for i, w := range wrongTurns {
					if w >= q.Turn {
						res.askedLater++
						continue
					}
					wrongTurns[k], wrongDetail[k] = w, wrongDetail[i]
					k++
				}
				wrongTurns, wrongDetail = wrongTurns[:k], wrongDetail[:k]
			}
		}
		for _, e := range ev {
			m, ok := e.Body.(referee.Move)
			if !ok || asked && (from == 0 || m.Turn >= from) {
				continue
			}
			if m.Turn > rep.Game.Len() || (m.Notation != record(m.Turn-1) && !sameLoopNotation(b, rep.Game, m)) {
				wrongTurns = append(wrongTurns, m.Turn)
				wrongDetail = append(wrongDetail, fmt.Sprintf("t=%d committed turn %d %s; the record has %s", e.T, m.Turn, m.Notation, recordOr(rep, b, m.Turn)))
			}
		}
	}
	var lastMS int64
	var lastCells []byte
	// ZERTZ_EXAM_TRACE=GAME/CONDITION prints every event of one exam.
	trace := os.Getenv("ZERTZ_EXAM_TRACE") == res.game+"/"+cond.name
	observe := func(ms int64, cells []byte) error {
		if trace && os.Getenv("ZERTZ_EXAM_FRAMES") != "" && string(cells) != string(lastCells) {
			fmt.Fprintf(os.Stderr, "frame %d %s\n", ms, cells)
		}
		if trace && os.Getenv("ZERTZ_EXAM_FRAMES") != "" && ms-lastMS > opt.ScanMS {
			fmt.Fprintf(os.Stderr, "frame %d gap %d\n", ms, ms-lastMS)
		}
		lastMS, lastCells = ms, append(lastCells[:0], cells...)
		ev := ref.ObserveBytes(ms, cells)
		if trace {
			for _, e := range ev {
				fmt.Fprintf(os.Stderr, "%s %s %s\n", cond.name, cells, e)
			}
		}
		check(ev, false)
		// Every question is answered as it comes, those an answer brings
		// too (a socket named, then the turns it changes).
		for round := 0; len(ev) > 0 && round < 8; round++ {
			var next []referee.Event
			for _, e := range ev {
				q, ok := e.Body.(referee.Question)
				if !ok {
					continue
				}
				res.questions++
				if len(q.Options) > 24 {
					// docs/CONTRACTS.md: a question offers at most 24.
					res.tooMany++
				}
				i, ok := players.AnswerSoFar(b, rep.Game, begun, q.About, q.Turn, q.Cell, q.Options, q.Provisional)
				if !ok {
					// The players played none of the options: they leave
					// the question open, and the referee follows the board
					// on.
					res.unanswerable++
					continue
				}
				aev := ref.Answer(ms, q.ID, i)
				if trace {
					fmt.Fprintf(os.Stderr, "answer %d to question %d\n", i, q.ID)
					for _, e := range aev {
						fmt.Fprintf(os.Stderr, "%s %s %s\n", cond.name, cells, e)
					}
				}
				check(aev, true)
				next = append(next, aev...)
			}
			ev = next
		}
		return nil
	}
	if _, err := players.Play(start, rec.Turns, opt, observe); err != nil {
		res.detail = err.Error()
		return res
	}
	// The players step back; the board stays as it is.
	for end := lastMS + 3000; lastMS < end; {
		if err := observe(lastMS+opt.ScanMS, lastCells); err != nil {
			break
		}
	}
	res.wrong = len(wrongTurns)
	if len(wrongDetail) > 0 {
		res.detail = wrongDetail[0]
	}
	g := ref.Game()
	res.followed = g.Len() == rep.Game.Len() && g.Position().Equal(rep.Game.Position())
	for i := 0; res.followed && i < g.Len(); i++ {
		got, _ := g.Turn(i)
		want, _ := rep.Game.Turn(i)
		res.followed = got == want || sameLoop(got, want, g.PositionAfter(i+1), rep.Game.PositionAfter(i+1))
	}
	want, got := rep.Game.Position().Result(), g.Position().Result()
	res.wrongWinner = got.Over && (!want.Over || got.Winner != want.Winner)
	if !res.followed && res.detail == "" {
		res.detail = fmt.Sprintf("the referee ended at turn %d (%s); the record has %d turns", g.Len(), g.Position(), rep.Game.Len())
	}
	return res
}

func recordOr(rep *record.Replay, b *engine.Board, turn int) string {
	if turn > rep.Game.Len() {
		return "no such turn"
	}
	tn, _ := rep.Game.Turn(turn - 1)
	return engine.FormatTurn(b, tn)
}

// sameLoopNotation: a capture loop jumped the other way round ends alike.
func sameLoopNotation(b *engine.Board, g *engine.Game, m referee.Move) bool {
	want, _ := g.Turn(m.Turn - 1)
	if want.Kind != engine.Capture || m.Move.Kind != "capture" || len(m.Move.Path) != len(want.Path()) {
		return false
	}
	p := want.Path()
	return m.Move.Path[0] == b.Label(p[0]) && m.Move.Path[len(p)-1] == b.Label(p[len(p)-1])
}

// examJob is one game an exam is sat on.
type examJob struct {
	file string
	rec  *record.Record
	rep  *record.Replay
}

// examJobs reads the games; -short keeps every tenth.
func examJobs(t *testing.T, files []string) []examJob {
	t.Helper()
	var jobs []examJob
	for i, file := range files {
		if testing.Short() && i%10 != 0 {
			continue
		}
		rec, err := record.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rec.Replay()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		jobs = append(jobs, examJob{file, rec, rep})
	}
	return jobs
}

// TestExams sits every exam over the built-in games (and the larger
// sample when it is there) and reports the figures. -short sits every
// tenth game.
func TestExams(t *testing.T) {
	files := sampleFiles(t)
	jobs := examJobs(t, files)
	for _, cond := range examConditions {
		t.Run(cond.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var results []examResult
			t.Run("games", func(t *testing.T) {
				for _, j := range jobs {
					t.Run(filepath.Base(j.file), func(t *testing.T) {
						t.Parallel()
						r := sitExam(j.file, j.rec, j.rep, cond, examSeed)
						mu.Lock()
						results = append(results, r)
						mu.Unlock()
					})
				}
			})
			sort.Slice(results, func(i, k int) bool { return results[i].game < results[k].game })
			var followed, turns, wrong, askedLater, wrongWinners, questions, unanswerable int
			var failed []string
			for _, r := range results {
				if r.tooMany > 0 {
					t.Errorf("%s: %d questions offer more than 24 options", r.game, r.tooMany)
				}
				turns += r.turns
				questions += r.questions
				unanswerable += r.unanswerable
				wrong += r.wrong
				askedLater += r.askedLater
				if r.followed {
					followed++
				}
				if r.wrongWinner {
					wrongWinners++
				}
				if !r.followed || r.wrong > 0 || r.wrongWinner {
					failed = append(failed, fmt.Sprintf("%s: followed %v, %d wrong turns, wrong winner %v: %s", r.game, r.followed, r.wrong, r.wrongWinner, r.detail))
				}
			}
			summary := fmt.Sprintf("exam %s: %d games, %d turns: %d followed to the last turn, %d questions (%d the record could not answer), %d wrong turns committed without a question, %d more asked about later, %d wrong winners",
				cond.name, len(results), turns, followed, questions, unanswerable, wrong, askedLater, wrongWinners)
			t.Log(summary)
			if p := os.Getenv("ZERTZ_EXAM_REPORT"); p != "" {
				appendLine(p, summary)
			}
			n := len(results)
			if cond.floorFollowed == 100 && cond.floorWrong == 0 && cond.floorWinners == 0 {
				if len(failed) > 0 {
					t.Errorf("%d of %d games failed the %s exam:\n%s", len(failed), n, cond.name, strings.Join(failed, "\n"))
				}
				return
			}
			// Not passed whole yet: no regression below today's figures,
			// which are shares of the whole set (-short sits too few games
			// for a share to mean anything, and only reports).
			if !testing.Short() && (followed*100 < cond.floorFollowed*n || wrong*100 > cond.floorWrong*n || wrongWinners*100 > cond.floorWinners*n) {
				t.Errorf("the %s exam fell below today's floor (%d %% followed, at most %d wrong turns and %d wrong winners per 100 games):\n%s",
					cond.name, cond.floorFollowed, cond.floorWrong, cond.floorWinners, strings.Join(failed, "\n"))
			} else if testing.Verbose() {
				t.Logf("games the %s exam does not pass yet:\n%s", cond.name, strings.Join(failed, "\n"))
			}
		})
	}
}

// otherSeeds are the seeds TestExamsOtherSeeds sits the exams with, beside
// TestExams's; seedExams the conditions it sits there. A referee that is
// never wrong does not depend on the players' dice.
var (
	otherSeeds = []uint64{8, 9, 10, 11, 12}
	seedExams  = []string{"stalls", "10hz", "dead", "stuck", "starved"}
	// seedFollowed is the share of games (per cent) an exam must follow to
	// the end with other seeds where it does not pass whole yet: the stuck
	// exam, whose wrong turns must still be none (32 of the 33 built-in
	// games are followed with seed 11, all of them with the others); the
	// starved exam, which need not follow a game the machine scans too
	// rarely for, but must never commit a wrong turn or winner (25 to 31
	// of the 33 are followed with seeds 8 to 12).
	seedFollowed = map[string]int{"stuck": 96, "starved": 0}
)

// TestExamsOtherSeeds sits the stalls, 10hz, dead, stuck and starved
// exams over the built-in games (the larger sample aside, so that a clone
// and CI sit the same games) with other seeds than TestExams's
// (otherSeeds), and asks for the exam whole: every game followed to its
// last turn (stuck and starved: a share of them, seedFollowed), no wrong
// turn committed without a question, no wrong winner. -short sits every
// tenth game.
func TestExamsOtherSeeds(t *testing.T) {
	files, err := samples.Records(samples.BuiltinDir())
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in games: %v", err)
	}
	jobs := examJobs(t, files)
	for _, seed := range otherSeeds {
		for _, cond := range examConditions {
			if !slices.Contains(seedExams, cond.name) {
				continue
			}
			t.Run(fmt.Sprintf("%s/seed%d", cond.name, seed), func(t *testing.T) {
				t.Parallel()
				results := make([]examResult, len(jobs))
				var wg sync.WaitGroup
				for i, j := range jobs {
					wg.Add(1)
					go func() {
						defer wg.Done()
						results[i] = sitExam(j.file, j.rec, j.rep, cond, seed)
					}()
				}
				wg.Wait()
				var followed, questions, wrong, winners int
				var failed []string
				for _, r := range results {
					questions += r.questions
					wrong += r.wrong
					if r.followed {
						followed++
					}
					if r.wrongWinner {
						winners++
					}
					_, floor := seedFollowed[cond.name]
					if !r.followed && !floor || r.wrong > 0 || r.wrongWinner {
						failed = append(failed, fmt.Sprintf("%s: followed %v, %d wrong turns, wrong winner %v: %s", r.game, r.followed, r.wrong, r.wrongWinner, r.detail))
					}
				}
				t.Logf("exam %s, seed %d: %d games: %d followed to the last turn, %d questions, %d wrong turns committed without a question, %d wrong winners",
					cond.name, seed, len(results), followed, questions, wrong, winners)
				if floor, ok := seedFollowed[cond.name]; ok && !testing.Short() && followed*100 < floor*len(results) {
					t.Errorf("the %s exam with seed %d followed %d of %d games; at least %d %% must be", cond.name, seed, followed, len(results), floor)
				}
				if len(failed) > 0 {
					t.Errorf("%d of %d games failed the %s exam with seed %d (ZERTZ_EXAM_SEED=%d ZERTZ_EXAM_TRACE=GAME/%s traces one):\n%s",
						len(failed), len(results), cond.name, seed, seed, cond.name, strings.Join(failed, "\n"))
				}
			})
		}
	}
}

// TestExamRegressions sits the exams that games shipped in
// testdata/exam failed before a change (see its PROVENANCE.md), so that
// they hold on a lone clone, where the larger sample is absent: each must
// be followed to its last turn, with no wrong turn committed without a
// question and the record's winner.
func TestExamRegressions(t *testing.T) {
	cases := []struct {
		game, cond string
		seed       uint64
		// lost: the game need not be followed to its end (the starved
		// exam asks only that no turn be committed wrong).
		lost bool
		// clean: no wrong turn committed at all, not even one a later
		// question covers (a healthy board: nothing hides the truth).
		clean bool
	}{
		{"039_TU_Z24-t1M0t8yk-bluedog-2017-11-12-2200.sgf", "stuck", 7, false, false},
		{"061_T_Z24-bluedog-thirdman-2013-11-10-1929.sgf", "stuck", 7, false, false},
		{"149_T_Z11-sbstnmntlf-f1do-2025-07-14-2112.sgf", "stuck", 7, false, false},
		{"176_T_Z24-ddyer-preve-2020-11-22-1848.sgf", "stuck", 7, false, false},
		{"176_T_Z24-ddyer-preve-2020-11-22-1848.sgf", "stuck", 8, false, false},
		// "None of these" to a stuck revision (answerNone, stuck.go).
		{"084_T_Z-eratos-pirtscire-2014-10-07-2024.sgf", "stuck", 7, false, false},
		{"044_Z-SmartBot-guest-2012-07-02-0502.sgf", "stuck", 8, false, false},
		{"170_U_Z24-superqwert-yavaleks-2023-11-03-1455.sgf", "stuck", 8, false, false},
		{"039_TU_Z24-t1M0t8yk-bluedog-2017-11-12-2200.sgf", "stuck", 9, false, false},
		{"120_T_Z-eratos-Raccoons-2015-10-07-2010.sgf", "stuck", 9, false, false},
		{"026_Z-mungnyo-chiniro-2009-06-29-1342.sgf", "stuck", 10, false, false},
		{"162_T_Z11-Raccoons-bluedog-2021-11-13-1405.sgf", "stuck", 10, false, false},
		// A socket that never changed, unknown over all the boards kept: the
		// stuck search's work must reach it (searchWork).
		{"157_T_Z11-preve-Walsch-2022-10-15-1907.sgf", "stuck", 8, false, false},
		{"038_Z11-SmartBot-superqwert-2020-11-26-0225.sgf", "stuck", 11, false, false},
		// Starved: each committed a wrong turn without a question.
		{"007_Z-Meadmaker-Dumbot-2012-09-30-2345.sgf", "starved", 11, true, false},
		{"009_Z-Dumbot-2m1204-2014-09-10-0837.sgf", "starved", 11, false, false},
		{"108_Z-Loshara-eugene-2015-01-03-1252.sgf", "starved", 11, true, false},
		{"116_Z-gogy-rigo99-2021-04-28-2031.sgf", "starved", 11, true, false},
		{"045_Z11-SmartBot-gacek-2006-03-24-1713.sgf", "starved", 8, true, false},
		{"131_T_Z-mankalacz1-ddyer-2022-12-03-1933.sgf", "starved", 12, true, false},
		{"037_Z24-v020245-guest1485-2008-10-03-0837.sgf", "starved", 12, false, false},
		{"088_Z-Walsch-ddyer-2022-04-05-2342.sgf", "starved", 8, false, false},
		// Scanned at 10 Hz: a marble seen in passing on F2 jumped to D4 at
		// once, the marble it jumped not yet lifted; the board read as a
		// placement on D4, committed, then asked about once the capture
		// showed (see jumpsFrom).
		{game: "050_Z-Dumbot-jackson-2004-10-31-0024.sgf", cond: "10hz", seed: 8, clean: true},
		// Built-in games (internal/samples/boardspace).
		{"002_U_Z-guest-guest-2011-04-12-2057.sgf", "stuck", 9, false, false},
		{"038_Z11-SmartBot-superqwert-2020-11-26-0225.sgf", "stuck", 9, false, false},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/seed%d", c.game, c.cond, c.seed), func(t *testing.T) {
			t.Parallel()
			file := filepath.Join("testdata", "exam", c.game)
			if _, err := os.Stat(file); err != nil {
				file = filepath.Join("..", "internal", "samples", "boardspace", c.game)
			}
			rec, err := record.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rep, err := rec.Replay()
			if err != nil {
				t.Fatal(err)
			}
			var cond *examCondition
			for i := range examConditions {
				if examConditions[i].name == c.cond {
					cond = &examConditions[i]
				}
			}
			if cond == nil {
				t.Fatalf("no exam condition %q", c.cond)
			}
			r := sitExam(file, rec, rep, *cond, c.seed)
			if !r.followed && !c.lost || r.wrong > 0 || r.wrongWinner || c.clean && r.askedLater > 0 {
				t.Errorf("followed %v, %d wrong turns (%d more asked about later), wrong winner %v: %s", r.followed, r.wrong, r.askedLater, r.wrongWinner, r.detail)
			}
		})
	}
}

// examSeed seeds the simulated players; ZERTZ_EXAM_SEED sits the exams
// with another, to see whether a change holds beyond seed 7, which the
// floors are measured with (under another seed they may fail).
var examSeed = func() uint64 {
	if s, err := strconv.ParseUint(os.Getenv("ZERTZ_EXAM_SEED"), 10, 64); err == nil {
		return s
	}
	return 7
}()

func appendLine(path, line string) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintln(f, line)
}
