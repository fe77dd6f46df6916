package analyst

import "time"

// ForSetting is the live analysis for the configuration's setting "on",
// "off" or "auto" (on, but not for tournament games): nil when off. Zero
// turns, budget or evaluation level take DefaultOptions'; a negative
// level turns the evaluation off.
func ForSetting(setting string, turns int, budget time.Duration, evalLevel int) *Options {
	if setting == "off" {
		return nil
	}
	return &Options{MaxTurns: turns, Budget: budget, EvalLevel: evalLevel, InTournament: setting == "on"}
}
