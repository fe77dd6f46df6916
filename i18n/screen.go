package i18n

// The status screen (display.StatusLines): 18 columns of the 7x13 font
// on the 128x64 SSD1306, so keep these short; tests check every one
// fits with worst-case arguments.
func init() { register("screen", screen) }

var screen = map[string]Entry{
	"screen.to-move": {"%s to move", "%s am Zug", "Au tour de %s", "Ruch: %s", "Ходит %s"},
	"screen.no-game": {"no game", "kein Spiel", "pas de partie", "brak partii", "нет партии"},
	"screen.player":  {"P%d", "S%d", "J%d", "G%d", "И%d"},
}
