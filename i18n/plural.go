package i18n

// Plural messages for Lang.N: the forms are separated by "|", one|other
// in en, de, fr, it, nl and es, one|few|many in pl and ru.
func init() { registerPlural("plural", plurals) }

var plurals = map[string]Entry{
	"n.marbles": {"%d marble|%d marbles", "%d Kugel|%d Kugeln", "%d bille|%d billes", "%d kulka|%d kulki|%d kulek", "%d шарик|%d шарика|%d шариков", "%d biglia|%d biglie", "%d knikker|%d knikkers", "%d bola|%d bolas"},
}
