package i18n

// The referee's guidance (referee.Message keys): the status line the LEDs
// and the screen explain, the pending turn's need, what a cell should
// hold, game results and the illegal reasons by engine rule. The English
// column is the referee's wire English (referee.English) and must stay
// equal to it; a test in display checks.
//
// Vocabulary of the published rulebooks: ring / Ring / anneau /
// pierścień / кольцо / tassello / tegel / anillo; marble / Kugel / bille /
// kulka / шарик / biglia / knikker / bola; capture / schlagen / prise /
// bicie / взятие / cattura / slaan / captura; isolation / Isolieren /
// isolement / izolacja / изоляция / isolamento / isoleren / aislar; pool /
// Vorrat / réserve / pula / запас / riserva / voorraad / fondo; a draw is
// parità, onbeslist, empate.
func init() { register("guidance", guidance) }

var guidance = map[string]Entry{
	"guide.player":              {"P%d", "S%d", "J%d", "G%d", "И%d", "G%d", "S%d", "J%d"},
	"guide.pending":             {"%s: %s", "%s: %s", "%s : %s", "%s: %s", "%s: %s", "%s: %s", "%s: %s", "%s: %s"},
	"guide.illegal":             {"Illegal: %s. Restore %s", "Regelwidrig: %s. Wiederherstellen: %s", "Coup illégal : %s. Rétablir %s", "Ruch niedozwolony: %s. Przywróć %s", "Недопустимо: %s. Восстановите %s", "Mossa irregolare: %s. Ripristinare %s", "Ongeldige zet: %s. Herstel %s", "Jugada ilegal: %s. Restablecer %s"},
	"guide.takeback-demand":     {"Take back turn %d: restore %s", "Zug %d zurücknehmen: %s wiederherstellen", "Reprendre le coup %d : rétablir %s", "Cofnij ruch %d: przywróć %s", "Отмена хода %d: восстановите %s", "Annullare il turno %d: ripristinare %s", "Beurt %d terugnemen: herstel %s", "Anular la jugada %d: restablecer %s"},
	"guide.question":            {"Which colour was on %s? Take-back button: next colour, confirm: answer", "Welche Farbe stand auf %s? Rücknahme-Taste: nächste Farbe, Bestätigen: antworten", "Quelle couleur était en %s ? Bouton reprise : couleur suivante, confirmer : répondre", "Jaki kolor był na %s? Przycisk cofania: następny kolor, zatwierdź: odpowiedz", "Какой цвет был на %s? Кнопка отмены: следующий цвет, подтвердить: ответ", "Quale colore c'era su %s? Tasto annulla: colore seguente, conferma: rispondere", "Welke kleur lag op %s? Terugnameknop: volgende kleur, bevestigen: antwoorden", "¿Qué color había en %s? Botón anular: color siguiente, confirmar: responder"},
	"guide.question-turns":      {"Which turns were played after turn %d? Take-back button: next, confirm: answer", "Welche Züge folgten auf Zug %d? Rücknahme-Taste: nächste, Bestätigen: antworten", "Quels coups ont été joués après le coup %d ? Bouton reprise : suivant, confirmer : répondre", "Jakie ruchy zagrano po ruchu %d? Przycisk cofania: następne, zatwierdź: odpowiedz", "Какие ходы сделаны после хода %d? Кнопка отмены: следующие, подтвердить: ответ", "Quali turni sono stati giocati dopo il turno %d? Tasto annulla: seguenti, conferma: rispondere", "Welke beurten volgden op beurt %d? Terugnameknop: volgende, bevestigen: antwoorden", "¿Qué jugadas se hicieron después de la jugada %d? Botón anular: siguientes, confirmar: responder"},
	"guide.take-off-claimed":    {"take off the claimed rings %s", "die gewonnenen Ringe abnehmen: %s", "retirer les anneaux isolés %s", "zdejmij odizolowane pierścienie %s", "снимите изолированные кольца %s", "togliere i tasselli isolati %s", "neem de geïsoleerde tegels weg: %s", "retirar los anillos aislados %s"},
	"guide.over-win":            {"Game over: %s wins (%s)", "Spielende: %s gewinnt (%s)", "Partie terminée : %s gagne (%s)", "Koniec gry: wygrywa %s (%s)", "Игра окончена: победитель %s (%s)", "Partita finita: vince %s (%s)", "Einde van het spel: %s wint (%s)", "Fin del juego: gana %s (%s)"},
	"guide.over-draw":           {"Game over: drawn (%s)", "Spielende: unentschieden (%s)", "Partie terminée : nulle (%s)", "Koniec gry: remis (%s)", "Игра окончена: ничья (%s)", "Partita finita: parità (%s)", "Einde van het spel: onbeslist (%s)", "Fin del juego: empate (%s)"},
	"guide.must-capture":        {"%s must capture: %s can jump %s", "%s muss schlagen: %s kann %s überspringen", "%s doit capturer : %s peut sauter %s", "%s musi bić: %s może przeskoczyć %s", "%s: взятие обязательно, %s может перепрыгнуть %s", "%s deve catturare: %s può saltare %s", "%s moet slaan: %s kan over %s springen", "%s debe capturar: %s puede saltar %s"},
	"guide.to-move":             {"%s to move: %s", "%s am Zug: %s", "À %s de jouer : %s", "Ruch gracza %s: %s", "Ходит %s: %s", "Tocca a %s: %s", "%s is aan de beurt: %s", "Juega %s: %s"},
	"guide.place-and-remove":    {"place a marble, then remove a free ring", "eine Kugel setzen, dann einen freien Ring entfernen", "poser une bille, puis retirer un anneau libre", "postaw kulkę, potem zdejmij wolny pierścień", "поставьте шарик, затем снимите свободное кольцо", "mettere una biglia, poi togliere un tassello libero", "leg een knikker, verwijder dan een vrije tegel", "situar una bola y retirar un anillo libre"},
	"guide.place-no-free-ring":  {"place a marble (no ring is free to remove)", "eine Kugel setzen (kein Ring ist frei zum Entfernen)", "poser une bille (aucun anneau libre à retirer)", "postaw kulkę (żaden pierścień nie jest wolny)", "поставьте шарик (свободных колец нет)", "mettere una biglia (nessun tassello libero da togliere)", "leg een knikker (geen vrije tegel om te verwijderen)", "situar una bola (no hay anillo libre que retirar)"},
	"guide.fix":                 {"%s %s", "%s %s", "%s %s", "%s %s", "%s %s", "%s %s", "%s %s", "%s %s"},
	"need.take-off-captured":    {"take off the captured marbles %s", "die geschlagenen Kugeln abnehmen: %s", "retirer les billes capturées %s", "zdejmij zbite kulki %s", "снимите взятые шарики %s", "togliere le biglie catturate %s", "neem de geslagen knikkers weg: %s", "quitar las bolas capturadas %s"},
	"need.continue-capture":     {"continue capturing from %s", "weiter schlagen von %s", "continuer la prise depuis %s", "kontynuuj bicie z %s", "продолжайте взятие с %s", "continuare la cattura da %s", "verder slaan vanaf %s", "seguir capturando desde %s"},
	"need.finish-capture":       {"finish the capture", "das Schlagen beenden", "terminer la prise", "dokończ bicie", "завершите взятие", "completare la cattura", "het slaan afmaken", "terminar la captura"},
	"need.place-marble":         {"place a marble on a vacant ring", "eine Kugel auf einen leeren Ring setzen", "poser une bille sur un anneau vide", "postaw kulkę na pustym pierścieniu", "поставьте шарик на свободное кольцо", "mettere una biglia su un tassello vuoto", "leg een knikker op een vrije tegel", "situar una bola en un anillo libre"},
	"need.remove-free-ring":     {"remove a free ring", "einen freien Ring entfernen", "retirer un anneau libre", "zdejmij wolny pierścień", "снимите свободное кольцо", "togliere un tassello libero", "verwijder een vrije tegel", "retirar un anillo libre"},
	"need.finish-turn":          {"finish the turn (two turns seen at once)", "den Zug beenden (zwei Züge auf einmal gesehen)", "terminer le coup (deux coups vus à la fois)", "dokończ ruch (dwa ruchy naraz)", "завершите ход (два хода сразу)", "completare il turno (due turni visti insieme)", "maak de beurt af (twee beurten tegelijk gezien)", "terminar la jugada (dos jugadas vistas a la vez)"},
	"content.no-ring":           {"(no ring)", "(kein Ring)", "(pas d'anneau)", "(bez pierścienia)", "(без кольца)", "(nessun tassello)", "(geen tegel)", "(sin anillo)"},
	"content.vacant":            {"(empty ring)", "(leerer Ring)", "(anneau vide)", "(pusty pierścień)", "(пустое кольцо)", "(tassello vuoto)", "(lege tegel)", "(anillo vacío)"},
	"content.white":             {"(white)", "(weiß)", "(blanche)", "(biała)", "(белый)", "(bianca)", "(wit)", "(blanca)"},
	"content.grey":              {"(grey)", "(grau)", "(grise)", "(szara)", "(серый)", "(grigia)", "(grijs)", "(gris)"},
	"content.black":             {"(black)", "(schwarz)", "(noire)", "(czarna)", "(чёрный)", "(nera)", "(zwart)", "(negra)"},
	"content.unknown":           {"(?)", "(?)", "(?)", "(?)", "(?)", "(?)", "(?)", "(?)"},
	"result.captures":           {"captures", "geschlagene Kugeln", "captures", "zbite kulki", "взятые шарики", "biglie catturate", "geslagen knikkers", "bolas capturadas"},
	"result.full-board":         {"full-board", "volles Brett", "plateau plein", "pełna plansza", "полная доска", "tavoliere pieno", "vol bord", "tablero lleno"},
	"result.repetition":         {"repetition", "Wiederholung", "répétition", "powtórzenie", "повторение", "ripetizione", "herhaling", "repetición"},
	"result.no-moves":           {"no-moves", "kein Zug möglich", "aucun coup", "brak ruchów", "нет ходов", "nessuna mossa", "geen zet mogelijk", "sin jugadas"},
	"result.time":               {"time", "Zeit", "temps", "czas", "время", "tempo", "tijd", "tiempo"},
	"result.resignation":        {"resignation", "Aufgabe", "abandon", "poddanie", "сдача", "abbandono", "opgave", "abandono"},
	"result.adjudication":       {"adjudication", "Schiedsspruch", "décision de l'arbitre", "decyzja sędziego", "решение арбитра", "decisione dell'arbitro", "beslissing van de scheidsrechter", "decisión del árbitro"},
	"result.draw":               {"draw", "Remis", "nulle", "remis", "ничья", "parità", "onbeslist", "empate"},
	"rule.game-over":            {"the game is over", "das Spiel ist vorbei", "la partie est terminée", "gra jest zakończona", "игра окончена", "la partita è finita", "het spel is afgelopen", "el juego ha terminado"},
	"rule.capture-compulsory":   {"capture is compulsory", "Schlagen ist Pflicht", "la prise est obligatoire", "bicie jest obowiązkowe", "взятие обязательно", "la cattura è obbligatoria", "slaan is verplicht", "la captura es obligatoria"},
	"rule.ring-not-vacant":      {"the ring already holds a marble", "auf dem Ring liegt schon eine Kugel", "l'anneau porte déjà une bille", "na pierścieniu już jest kulka", "на кольце уже есть шарик", "sul tassello c'è già una biglia", "op de tegel ligt al een knikker", "el anillo ya tiene una bola"},
	"rule.marble-not-available": {"that marble is not available", "diese Kugel ist nicht verfügbar", "cette bille n'est pas disponible", "ta kulka jest niedostępna", "этого шарика нет", "quella biglia non è disponibile", "die knikker is niet beschikbaar", "esa bola no está disponible"},
	"rule.pool-not-empty":       {"marbles come from the pool until it is empty", "Kugeln kommen aus dem Vorrat, bis er leer ist", "les billes viennent de la réserve tant qu'elle n'est pas vide", "kulki bierze się z puli, dopóki nie jest pusta", "шарики берутся из запаса, пока он не пуст", "le biglie si prendono dalla riserva finché non è vuota", "knikkers komen uit de voorraad tot die leeg is", "las bolas se toman del fondo hasta que se agote"},
	"rule.ring-not-free":        {"the ring is not free", "der Ring ist nicht frei", "l'anneau n'est pas libre", "pierścień nie jest wolny", "кольцо не свободно", "il tassello non è libero", "de tegel is niet vrij", "el anillo no está libre"},
	"rule.removal-required":     {"a free ring must be removed", "ein freier Ring muss entfernt werden", "un anneau libre doit être retiré", "trzeba zdjąć wolny pierścień", "нужно снять свободное кольцо", "bisogna togliere un tassello libero", "een vrije tegel moet verwijderd worden", "hay que retirar un anillo libre"},
	"rule.remove-placed-ring":   {"the ring holds the marble just placed", "auf dem Ring liegt die eben gesetzte Kugel", "l'anneau porte la bille qui vient d'être posée", "na pierścieniu leży właśnie postawiona kulka", "на кольце только что поставленный шарик", "sul tassello c'è la biglia appena messa", "op de tegel ligt de knikker die net gelegd is", "el anillo tiene la bola recién situada"},
	"rule.not-a-jump":           {"that is not a jump", "das ist kein Sprung", "ce n'est pas un saut", "to nie jest przeskok", "это не прыжок", "non è un salto", "dat is geen sprong", "eso no es un salto"},
	"rule.chain-must-continue":  {"the chain must continue", "die Schlagkette muss weitergehen", "la prise doit continuer", "bicie musi być kontynuowane", "взятие должно продолжаться", "la cattura deve continuare", "het slaan moet doorgaan", "la captura debe continuar"},
	"rule.cannot-pass":          {"a player who can move may not pass", "wer ziehen kann, darf nicht passen", "un joueur qui peut jouer ne peut pas passer", "gracz, który może wykonać ruch, nie może pasować", "игрок, который может ходить, не может пропустить ход", "chi può muovere non può passare", "wie een zet kan doen, mag niet passen", "quien puede jugar no puede pasar"},
	"rule.malformed-turn":       {"not a turn", "kein gültiger Zug", "ce n'est pas un coup", "to nie jest ruch", "это не ход", "non è un turno", "geen geldige beurt", "no es una jugada"},
	"rule.no-ring":              {"there is no ring there", "dort ist kein Ring", "il n'y a pas d'anneau ici", "tam nie ma pierścienia", "там нет кольца", "lì non c'è nessun tassello", "daar ligt geen tegel", "ahí no hay ningún anillo"},
	"rule.no-jumping-marble":    {"there is no marble to jump with", "keine Kugel zum Springen da", "aucune bille pour sauter", "brak kulki do przeskoku", "нет шарика для прыжка", "nessuna biglia con cui saltare", "geen knikker om mee te springen", "no hay bola con la que saltar"},
	"guide.engine-turn":         {"%s (the engine) plays %s: carry it out as lit", "%s (die Engine) spielt %s: bitte wie angezeigt ausführen", "%s (le moteur) joue %s : l'exécuter comme indiqué", "%s (silnik) gra %s: wykonaj jak podświetlono", "%s (движок) играет %s: выполните, как показано", "%s (il motore) gioca %s: eseguila come indicato", "%s (de engine) speelt %s: voer die uit zoals aangegeven", "%s (el motor) juega %s: ejecútala como se indica"},
	"guide.engine-thinking":     {"%s (the engine) is thinking", "%s (die Engine) denkt nach", "%s (le moteur) réfléchit", "%s (silnik) myśli", "%s (движок) думает", "%s (il motore) sta pensando", "%s (de engine) denkt na", "%s (el motor) está pensando"},
	"guide.hint":                {"Hint: %s", "Tipp: %s", "Conseil : %s", "Podpowiedź: %s", "Подсказка: %s", "Suggerimento: %s", "Tip: %s", "Sugerencia: %s"},
	"guide.engine-last":         {"The engine played %s", "Die Engine spielte %s", "Le moteur a joué %s", "Silnik zagrał %s", "Движок сыграл %s", "Il motore ha giocato %s", "De engine speelde %s", "El motor jugó %s"},
	"need.engine-turn":          {"carry out %s as lit", "%s wie angezeigt ausführen", "exécuter %s comme indiqué", "wykonaj %s jak podświetlono", "выполните %s, как показано", "esegui %s come indicato", "voer %s uit zoals aangegeven", "ejecuta %s como se indica"},
	"rule.engine-turn":          {"that is not the engine's turn", "das ist nicht der Zug der Engine", "ce n'est pas le coup du moteur", "to nie jest ruch silnika", "это не ход движка", "non è la mossa del motore", "dat is niet de zet van de engine", "no es la jugada del motor"},
	"rule.other":                {"the board differs from every legal continuation", "das Brett passt zu keinem erlaubten Zug", "le plateau ne correspond à aucun coup légal", "plansza nie odpowiada żadnemu dozwolonemu ruchowi", "доска не соответствует ни одному допустимому ходу", "il tavoliere non corrisponde a nessuna mossa regolare", "het bord past bij geen enkele geldige zet", "el tablero no corresponde a ninguna jugada legal"},
}

// The status screen's short forms of guidance: display says "short.KEY"
// on the 18-column screen when the catalogue has it, else KEY. The LEDs
// show the cells, so the short forms leave the cell lists out.
func init() { register("guidance-short", guidanceShort) }

var guidanceShort = map[string]Entry{
	"short.guide.pending":            {"%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s"},
	"short.guide.illegal":            {"Illegal: see LEDs", "Regelwidrig! LEDs", "Illégal : voir LED", "Niedozwolone! LED", "Неверно: см. LED", "Irregolare: LED", "Ongeldig: zie LED", "Ilegal: ver LED"},
	"short.guide.takeback-demand":    {"Take back turn %[1]d", "Zug %[1]d zurück", "Reprendre coup %[1]d", "Cofnij ruch %[1]d", "Отмена хода %[1]d", "Annulla turno %[1]d", "Beurt %[1]d terug", "Anular jugada %[1]d"},
	"short.guide.question":           {"Colour on %s?", "Farbe auf %s?", "Couleur en %s ?", "Kolor na %s?", "Цвет на %s?", "Colore su %s?", "Kleur op %s?", "¿Color en %s?"},
	"short.guide.question-turns":     {"Which turns?", "Welche Züge?", "Quels coups ?", "Jakie ruchy?", "Какие ходы?", "Quali turni?", "Welke beurten?", "¿Qué jugadas?"},
	"short.fault.dead-cells":         {"dead sensor", "Sensor ausgefallen", "capteur mort", "czujnik martwy", "датчик не отвечает", "sensore guasto", "sensor defect", "sensor averiado"},
	"short.fault.cells-read":         {"sensors read again", "Sensoren lesen", "capteurs relus", "czujniki działają", "датчики снова ОК", "sensori riletti", "sensoren weer OK", "sensores en marcha"},
	"short.fault.stuck-cell":         {"stuck sensor", "Sensor hängt", "capteur bloqué", "czujnik zawieszony", "датчик завис", "sensore bloccato", "sensor hangt", "sensor atascado"},
	"short.fault.stuck-trusted":      {"sensor trusted", "Sensor entlastet", "capteur fiable", "czujnik OK", "датчик исправен", "sensore fidato", "sensor vertrouwd", "sensor fiable"},
	"short.fault.stuck-reads":        {"sensor reads again", "Sensor liest", "capteur relu", "czujnik działa", "датчик снова ОК", "sensore riletto", "sensor weer OK", "sensor en marcha"},
	"short.guide.take-off-claimed":   {"take off rings", "Ringe abnehmen", "retirer anneaux", "usuń pierścienie", "снимите кольца", "togliere tasselli", "tegels wegnemen", "retirar anillos"},
	"short.guide.over-win":           {"%[1]s wins", "%[1]s gewinnt", "%[1]s gagne", "Wygrywa %[1]s", "Победа: %[1]s", "Vince %[1]s", "%[1]s wint", "Gana %[1]s"},
	"short.guide.over-draw":          {"Game drawn", "Unentschieden", "Partie nulle", "Remis", "Ничья", "Parità", "Onbeslist", "Empate"},
	"short.guide.must-capture":       {"must capture %[2]s", "Schlagzwang: %[2]s", "prise obligée %[2]s", "musisz bić: %[2]s", "надо бить: %[2]s", "deve catturare %[2]s", "moet slaan: %[2]s", "debe capturar %[2]s"},
	"short.guide.to-move":            {"%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s"},
	"short.guide.place-and-remove":   {"place, remove ring", "setzen, Ring weg", "poser, ôter anneau", "postaw i zdejmij", "поставьте, снимите", "mettere e togliere", "leggen, tegel weg", "situar y retirar"},
	"short.guide.place-no-free-ring": {"place a marble", "Kugel setzen", "poser une bille", "postaw kulkę", "поставьте шарик", "mettere una biglia", "leg een knikker", "situar una bola"},
	"short.need.take-off-captured":   {"take off marbles", "Kugeln abnehmen", "retirer les billes", "zdejmij kulki", "снимите шарики", "togliere le biglie", "knikkers wegnemen", "quitar las bolas"},
	"short.need.continue-capture":    {"jump on from %s", "weiter von %s", "continuer de %s", "bij dalej z %s", "дальше с %s", "continuare da %s", "verder vanaf %s", "seguir desde %s"},
	"short.need.finish-capture":      {"finish capture", "Schlagen beenden", "finir la prise", "dokończ bicie", "завершите взятие", "finire la cattura", "slaan afmaken", "terminar captura"},
	"short.need.place-marble":        {"place a marble", "Kugel setzen", "poser une bille", "postaw kulkę", "поставьте шарик", "mettere una biglia", "leg een knikker", "situar una bola"},
	"short.need.remove-free-ring":    {"remove a free ring", "freien Ring nehmen", "ôter anneau libre", "zdejmij pierścień", "снимите кольцо", "togliere tassello", "vrije tegel weg", "retirar un anillo"},
	"short.guide.engine-turn":        {"engine %.11[2]s", "Engine %.11[2]s", "moteur %.11[2]s", "silnik %.11[2]s", "движок %.11[2]s", "motore %.11[2]s", "engine: %.10[2]s", "motor %.12[2]s"},
	"short.guide.engine-thinking":    {"engine thinking", "Engine denkt", "moteur réfléchit", "silnik myśli", "движок думает", "motore pensa", "engine denkt na", "motor pensando"},
	"short.guide.hint":               {"hint %.13s", "Tipp %.13s", "conseil %.10s", "podp. %.12s", "совет %.12s", "sugg. %.12s", "tip %.14s", "pista %.12s"},
	"short.guide.engine-last":        {"engine %.11s", "Engine %.11s", "moteur %.11s", "silnik %.11s", "движок %.11s", "motore %.11s", "engine: %.10s", "motor %.12s"},
	"short.need.engine-turn":         {"play %.13s", "Zug %.14s", "jouer %.12s", "zagraj %.11s", "ход %.14s", "gioca %.12s", "speel %.12s", "juega %.12s"},
	"short.need.finish-turn":         {"finish the turn", "Zug beenden", "finir le coup", "dokończ ruch", "завершите ход", "finire il turno", "beurt afmaken", "terminar jugada"},
}
