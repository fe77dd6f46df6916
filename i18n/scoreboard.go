package i18n

// The scoreboard and overlay pages (scoreboard/render.go, analysis.go,
// page.html).
func init() { register("scoreboard", scoreboard) }

var scoreboard = map[string]Entry{
	"page.language": {"Language", "Sprache", "Langue", "Język", "Язык"},
}
