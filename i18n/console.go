package i18n

// The arbiter console and the results pages (scoreboard/console.go,
// results.go). Keys start with "console." or "results.".
func init() { register("console", console) }

var console = map[string]Entry{
	"console.title": {"Arbiter console", "Schiedsrichterkonsole", "Console d'arbitrage", "Konsola sędziego", "Пульт арбитра"},
}
