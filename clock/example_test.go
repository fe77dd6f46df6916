package clock_test

import (
	"fmt"

	"github.com/zertzboard/zertzboard/clock"
)

// The board drives the clocks with its frame times: a turn's time is the
// time between the commits, and Fischer's increment follows the commit.
func Example() {
	ctl, err := clock.Parse("fischer:5m+3s")
	if err != nil {
		panic(err)
	}
	c := clock.New(ctl)
	c.Start(0, 0) // the board is set up: player 0's clock runs
	for t := int64(0); t <= 4000; t += 5 {
		c.Tick(t) // every frame
	}
	used := c.Commit(4000, 0) // player 0's turn is committed
	fmt.Println(ctl, used, c.Remaining(4000), c.Running())
	// Output: fischer:5m+3s 4000 [299000 300000] 1
}

func ExampleParse() {
	for _, s := range []string{"sudden:90m", "fischer:1h0m30s+10s", "sudden:5s"} {
		c, err := clock.Parse(s)
		fmt.Println(c, err)
	}
	// Output:
	// sudden:1h30m <nil>
	// fischer:1h30s+10s <nil>
	// none clock: time control "sudden:5s": the base time must be 10s to 6h (want none, sudden:DUR or fischer:DUR+INC, e.g. sudden:25m or fischer:20m+10s)
}
