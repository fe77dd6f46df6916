package i18n

// The status screen (display.StatusLines): 18 columns of the 7x13 font
// on the 128x64 SSD1306, so keep these short; tests check every one
// fits with worst-case arguments.
func init() { register("screen", screen) }

var screen = map[string]Entry{
	"screen.to-move": {"%s to move", "%s am Zug", "Au tour de %s", "Ruch: %s", "Ходит %s", "Tocca a %s", "%s aan zet", "Juega %s"},
	"screen.no-game": {"no game", "kein Spiel", "pas de partie", "brak partii", "нет партии", "nessuna partita", "geen partij", "sin partida"},
	// Captured marbles by colour: white, grey, black.
	"screen.captures": {"w%d g%d b%d", "w%d g%d s%d", "b%d g%d n%d", "b%d s%d c%d", "б%d с%d ч%d", "b%d g%d n%d", "w%d g%d z%d", "b%d g%d n%d"},

	// The simulator's terminal view (sim --show).
	"term.pool":   {"pool %s", "Vorrat %s", "réserve %s", "pula %s", "запас %s", "riserva %s", "voorraad %s", "fondo %s"},
	"term.counts": {"%dw %dg %db", "%dw %dg %ds", "%db %dg %dn", "%db %ds %dc", "%dб %dс %dч", "%db %dg %dn", "%dw %dg %dz", "%db %dg %dn"},
	"term.clock":  {"clock", "Uhr", "pendule", "zegar", "часы", "orologio", "klok", "reloj"},
	"term.turn":   {"turn %d", "Zug %d", "coup %d", "ruch %d", "ход %d", "turno %d", "beurt %d", "jugada %d"},
	// The arbiter's pause, between the two clocks on the top line.
	"screen.clock-paused": {"PAUSE", "PAUSE", "PAUSE", "PAUZA", "ПАУЗА", "PAUSA", "PAUZE", "PAUSA"},
	// Sensor faults, by health.Kind, with the socket's label: at most 15
	// columns with a 3-letter label ("!2 " and the fault fill a line).
	"fault.list":          {"sensor faults: %s", "Sensorstörungen: %s", "capteurs en panne : %s", "usterki czujników: %s", "сбои датчиков: %s", "sensori guasti: %s", "sensorfouten: %s", "fallos de sensor: %s"},
	"fault.healthy":       {"sensors healthy", "Sensoren in Ordnung", "capteurs en bon état", "czujniki sprawne", "датчики исправны", "sensori in ordine", "sensoren in orde", "sensores en orden"},
	"fault.saturated":     {"%s: saturated", "%s: gesättigt", "%s: saturé", "%s: nasycony", "%s: насыщение", "%s: saturo", "%s: verzadigd", "%s: saturado"},
	"fault.stuck":         {"%s: stuck", "%s: hängt", "%s: bloqué", "%s: zawieszony", "%s: завис", "%s: bloccato", "%s: hangt", "%s: bloqueado"},
	"fault.noisy":         {"%s: noisy", "%s: rauscht", "%s: bruité", "%s: zaszumiony", "%s: шум", "%s: rumoroso", "%s: ruis", "%s: ruidoso"},
	"fault.drifting":      {"%s: drifting", "%s: driftet", "%s: dérive", "%s: dryfuje", "%s: дрейф", "%s: deriva", "%s: drijft", "%s: deriva"},
	"fault.unreadable":    {"%s: unreadable", "%s: unlesbar", "%s: illisible", "%s: zły odczyt", "%s: нечитаем", "%s: non letto", "%s: onleesbaar", "%s: ilegible"},
	"fault.dead-cells":    {"no reading from %s: refereeing on without it, and asking when a turn there is unclear", "kein Messwert von %s: Schiedsrichter macht ohne weiter und fragt, wenn ein Zug dort unklar ist", "aucune lecture de %s : l'arbitrage continue sans, avec une question si un coup y est incertain", "brak odczytu z %s: sędziowanie bez niego, z pytaniem, gdy ruch tam jest niejasny", "нет сигнала с %s: судейство идёт без него, с вопросом, если ход там неясен", "nessuna lettura da %s: l'arbitraggio continua senza, con una domanda se un turno lì è incerto", "geen meting van %s: de scheidsrechter gaat zonder verder en vraagt het als een beurt daar onduidelijk is", "sin lectura de %s: el arbitraje sigue sin él y pregunta si una jugada allí no está clara"},
	"fault.cells-read":    {"every socket reads again", "alle Felder werden wieder gelesen", "toutes les cases sont de nouveau lues", "wszystkie pola znów są odczytywane", "все гнёзда снова читаются", "tutte le caselle vengono di nuovo lette", "alle velden worden weer gelezen", "todas las casillas se leen de nuevo"},
	"fault.stuck-cell":    {"the sensor of %s reads the same whatever is on it: refereeing on without it, and asking about the turns it misread", "der Sensor von %s zeigt immer dasselbe: Schiedsrichter macht ohne ihn weiter und fragt nach den falsch gelesenen Zügen", "le capteur de %s lit toujours la même chose : l'arbitrage continue sans lui, avec une question sur les coups mal lus", "czujnik %s pokazuje stale to samo: sędziowanie bez niego, z pytaniem o źle odczytane ruchy", "датчик %s всё время показывает одно и то же: судейство идёт без него, с вопросом о неверно прочитанных ходах", "il sensore di %s legge sempre lo stesso: l'arbitraggio continua senza, con una domanda sui turni letti male", "de sensor van %s leest steeds hetzelfde: de scheidsrechter gaat zonder verder en vraagt naar de verkeerd gelezen beurten", "el sensor de %s lee siempre lo mismo: el arbitraje sigue sin él y pregunta por las jugadas mal leídas"},
	"fault.stuck-trusted": {"the players' answer clears the sensor of %s: it is read again", "die Antwort der Spieler entlastet den Sensor von %s: er wird wieder gelesen", "la réponse des joueurs disculpe le capteur de %s : il est de nouveau lu", "odpowiedź graczy oczyszcza czujnik %s: znów jest odczytywany", "ответ игроков оправдал датчик %s: он снова читается", "la risposta dei giocatori scagiona il sensore di %s: è di nuovo letto", "het antwoord van de spelers pleit de sensor van %s vrij: hij wordt weer gelezen", "la respuesta de los jugadores exculpa al sensor de %s: se vuelve a leer"},
	"fault.stuck-reads":   {"the sensor of %s reads again", "der Sensor von %s liest wieder", "le capteur de %s lit de nouveau", "czujnik %s znów działa", "датчик %s снова читается", "il sensore di %s legge di nuovo", "de sensor van %s leest weer", "el sensor de %s lee de nuevo"},
	// Standing warnings, shown with the faults.
	"warn.no-journal":      {"NO JOURNAL", "KEIN JOURNAL", "PAS DE JOURNAL", "BRAK DZIENNIKA", "НЕТ ЖУРНАЛА", "SENZA REGISTRO", "GEEN JOURNAAL", "SIN REGISTRO"},
	"warn.journal-damaged": {"BAD JOURNAL", "JOURNAL DEFEKT", "JOURNAL ABÎMÉ", "BŁĄD DZIENNIKA", "СБОЙ ЖУРНАЛА", "REGISTRO GUASTO", "JOURNAAL DEFECT", "REGISTRO DAÑADO"},
	"warn.journal-write":   {"JOURNAL UNSAVED", "JOURNAL-FEHLER", "ÉCHEC JOURNAL", "BŁĄD ZAPISU", "ОШИБКА ЗАПИСИ", "ERRORE REGISTRO", "JOURNAAL-FOUT", "FALLO REGISTRO"},
	// Notices from the buttons, in place of the status line.
	"notice.confirm-new-game": {"Confirm: new game?", "Neues Spiel: OK?", "OK pour rejouer", "Potwierdź nową grę", "Новая игра: ОК?", "Nuova partita: OK?", "Nieuwe partij: OK?", "¿Nueva partida? OK"},
	"notice.which-colour":     {"%s %s? Confirm", "%s %s? OK", "%s %s ? OK", "%s %s? OK", "%s %s? ОК", "%s %s? OK", "%s %s? OK", "¿%s %s? OK"},
	"notice.which-turns":      {"%d/%d %s", "%d/%d %s", "%d/%d %s", "%d/%d %s", "%d/%d %s", "%d/%d %s", "%d/%d %s", "%d/%d %s"},
	"notice.which-cell":       {"%d/%d on %s? OK", "%d/%d auf %s? OK", "%d/%d sur %s ? OK", "%d/%d na %s? OK", "%d/%d на %s? ОК", "%d/%d su %s? OK", "%d/%d op %s? OK", "¿%d/%d en %s? OK"},
	"notice.which-cell-other": {"%d/%d other? OK", "%d/%d anderswo? OK", "%d/%d autre ? OK", "%d/%d inne? OK", "%d/%d другое? ОК", "%d/%d altrove? OK", "%d/%d elders? OK", "¿%d/%d otro? OK"},
	"colour.white":            {"white", "weiß", "blanche", "biała", "белый", "bianca", "wit", "blanca"},
	"colour.grey":             {"grey", "grau", "grise", "szara", "серый", "grigia", "grijs", "gris"},
	"colour.black":            {"black", "schwarz", "noire", "czarna", "чёрный", "nera", "zwart", "negra"},
}
