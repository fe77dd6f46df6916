package i18n

// The referee's guidance (referee.Message keys): the status line the LEDs
// and the screen explain, the pending turn's need, what a cell should
// hold, game results and the illegal reasons by engine rule. The English
// column is the referee's wire English (referee.English) and must stay
// equal to it; a test in display checks.
//
// Vocabulary of the published rulebooks: ring / Ring / anneau /
// pierścień / кольцо; marble / Kugel / bille / kulka / шарик; capture /
// schlagen / prise / bicie / взятие; pool / Vorrat / réserve / pula /
// запас.
func init() { register("guidance", guidance) }

var guidance = map[string]Entry{
	"guide.player":              {"P%d", "S%d", "J%d", "G%d", "И%d"},
	"guide.pending":             {"%s: %s", "%s: %s", "%s : %s", "%s: %s", "%s: %s"},
	"guide.illegal":             {"Illegal: %s. Restore %s", "Regelwidrig: %s. Wiederherstellen: %s", "Coup illégal : %s. Rétablir %s", "Ruch niedozwolony: %s. Przywróć %s", "Недопустимо: %s. Восстановите %s"},
	"guide.takeback-demand":     {"Take back turn %d: restore %s", "Zug %d zurücknehmen: %s wiederherstellen", "Reprendre le coup %d : rétablir %s", "Cofnij ruch %d: przywróć %s", "Отмена хода %d: восстановите %s"},
	"guide.question":            {"Which colour was on %s? Take-back button: next colour, confirm: answer", "Welche Farbe stand auf %s? Rücknahme-Taste: nächste Farbe, Bestätigen: antworten", "Quelle couleur était en %s ? Bouton reprise : couleur suivante, confirmer : répondre", "Jaki kolor był na %s? Przycisk cofania: następny kolor, zatwierdź: odpowiedz", "Какой цвет был на %s? Кнопка отмены: следующий цвет, подтвердить: ответ"},
	"guide.question-turns":      {"Which turns were played after turn %d? Take-back button: next, confirm: answer", "Welche Züge folgten auf Zug %d? Rücknahme-Taste: nächste, Bestätigen: antworten", "Quels coups ont été joués après le coup %d ? Bouton reprise : suivant, confirmer : répondre", "Jakie ruchy zagrano po ruchu %d? Przycisk cofania: następne, zatwierdź: odpowiedz", "Какие ходы сделаны после хода %d? Кнопка отмены: следующие, подтвердить: ответ"},
	"guide.take-off-claimed":    {"take off the claimed rings %s", "die gewonnenen Ringe abnehmen: %s", "retirer les anneaux isolés %s", "zdejmij odizolowane pierścienie %s", "снимите изолированные кольца %s"},
	"guide.over-win":            {"Game over: %s wins (%s)", "Spielende: %s gewinnt (%s)", "Partie terminée : %s gagne (%s)", "Koniec gry: wygrywa %s (%s)", "Игра окончена: победитель %s (%s)"},
	"guide.over-draw":           {"Game over: drawn (%s)", "Spielende: unentschieden (%s)", "Partie terminée : nulle (%s)", "Koniec gry: remis (%s)", "Игра окончена: ничья (%s)"},
	"guide.must-capture":        {"%s must capture: %s can jump %s", "%s muss schlagen: %s kann %s überspringen", "%s doit capturer : %s peut sauter %s", "%s musi bić: %s może przeskoczyć %s", "%s: взятие обязательно, %s может перепрыгнуть %s"},
	"guide.to-move":             {"%s to move: %s", "%s am Zug: %s", "À %s de jouer : %s", "Ruch gracza %s: %s", "Ходит %s: %s"},
	"guide.place-and-remove":    {"place a marble, then remove a free ring", "eine Kugel setzen, dann einen freien Ring entfernen", "poser une bille, puis retirer un anneau libre", "postaw kulkę, potem zdejmij wolny pierścień", "поставьте шарик, затем снимите свободное кольцо"},
	"guide.place-no-free-ring":  {"place a marble (no ring is free to remove)", "eine Kugel setzen (kein Ring ist frei zum Entfernen)", "poser une bille (aucun anneau libre à retirer)", "postaw kulkę (żaden pierścień nie jest wolny)", "поставьте шарик (свободных колец нет)"},
	"guide.fix":                 {"%s %s", "%s %s", "%s %s", "%s %s", "%s %s"},
	"need.take-off-captured":    {"take off the captured marbles %s", "die geschlagenen Kugeln abnehmen: %s", "retirer les billes capturées %s", "zdejmij zbite kulki %s", "снимите взятые шарики %s"},
	"need.continue-capture":     {"continue capturing from %s", "weiter schlagen von %s", "continuer la prise depuis %s", "kontynuuj bicie z %s", "продолжайте взятие с %s"},
	"need.finish-capture":       {"finish the capture", "das Schlagen beenden", "terminer la prise", "dokończ bicie", "завершите взятие"},
	"need.place-marble":         {"place a marble on a vacant ring", "eine Kugel auf einen leeren Ring setzen", "poser une bille sur un anneau vide", "postaw kulkę na pustym pierścieniu", "поставьте шарик на свободное кольцо"},
	"need.remove-free-ring":     {"remove a free ring", "einen freien Ring entfernen", "retirer un anneau libre", "zdejmij wolny pierścień", "снимите свободное кольцо"},
	"need.finish-turn":          {"finish the turn (two turns seen at once)", "den Zug beenden (zwei Züge auf einmal gesehen)", "terminer le coup (deux coups vus à la fois)", "dokończ ruch (dwa ruchy naraz)", "завершите ход (два хода сразу)"},
	"content.no-ring":           {"(no ring)", "(kein Ring)", "(pas d'anneau)", "(bez pierścienia)", "(без кольца)"},
	"content.vacant":            {"(empty ring)", "(leerer Ring)", "(anneau vide)", "(pusty pierścień)", "(пустое кольцо)"},
	"content.white":             {"(white)", "(weiß)", "(blanche)", "(biała)", "(белый)"},
	"content.grey":              {"(grey)", "(grau)", "(grise)", "(szara)", "(серый)"},
	"content.black":             {"(black)", "(schwarz)", "(noire)", "(czarna)", "(чёрный)"},
	"content.unknown":           {"(?)", "(?)", "(?)", "(?)", "(?)"},
	"result.captures":           {"captures", "geschlagene Kugeln", "captures", "zbite kulki", "взятые шарики"},
	"result.full-board":         {"full-board", "volles Brett", "plateau plein", "pełna plansza", "полная доска"},
	"result.repetition":         {"repetition", "Wiederholung", "répétition", "powtórzenie", "повторение"},
	"result.no-moves":           {"no-moves", "kein Zug möglich", "aucun coup", "brak ruchów", "нет ходов"},
	"result.time":               {"time", "Zeit", "temps", "czas", "время"},
	"result.resignation":        {"resignation", "Aufgabe", "abandon", "poddanie", "сдача"},
	"result.adjudication":       {"adjudication", "Schiedsspruch", "décision de l'arbitre", "decyzja sędziego", "решение арбитра"},
	"result.draw":               {"draw", "Remis", "nulle", "remis", "ничья"},
	"rule.game-over":            {"the game is over", "das Spiel ist vorbei", "la partie est terminée", "gra jest zakończona", "игра окончена"},
	"rule.capture-compulsory":   {"capture is compulsory", "Schlagen ist Pflicht", "la prise est obligatoire", "bicie jest obowiązkowe", "взятие обязательно"},
	"rule.ring-not-vacant":      {"the ring already holds a marble", "auf dem Ring liegt schon eine Kugel", "l'anneau porte déjà une bille", "na pierścieniu już jest kulka", "на кольце уже есть шарик"},
	"rule.marble-not-available": {"that marble is not available", "diese Kugel ist nicht verfügbar", "cette bille n'est pas disponible", "ta kulka jest niedostępna", "этого шарика нет"},
	"rule.pool-not-empty":       {"marbles come from the pool until it is empty", "Kugeln kommen aus dem Vorrat, bis er leer ist", "les billes viennent de la réserve tant qu'elle n'est pas vide", "kulki bierze się z puli, dopóki nie jest pusta", "шарики берутся из запаса, пока он не пуст"},
	"rule.ring-not-free":        {"the ring is not free", "der Ring ist nicht frei", "l'anneau n'est pas libre", "pierścień nie jest wolny", "кольцо не свободно"},
	"rule.removal-required":     {"a free ring must be removed", "ein freier Ring muss entfernt werden", "un anneau libre doit être retiré", "trzeba zdjąć wolny pierścień", "нужно снять свободное кольцо"},
	"rule.remove-placed-ring":   {"the ring holds the marble just placed", "auf dem Ring liegt die eben gesetzte Kugel", "l'anneau porte la bille qui vient d'être posée", "na pierścieniu leży właśnie postawiona kulka", "на кольце только что поставленный шарик"},
	"rule.not-a-jump":           {"that is not a jump", "das ist kein Sprung", "ce n'est pas un saut", "to nie jest przeskok", "это не прыжок"},
	"rule.chain-must-continue":  {"the chain must continue", "die Schlagkette muss weitergehen", "la prise doit continuer", "bicie musi być kontynuowane", "взятие должно продолжаться"},
	"rule.cannot-pass":          {"a player who can move may not pass", "wer ziehen kann, darf nicht passen", "un joueur qui peut jouer ne peut pas passer", "gracz, który może wykonać ruch, nie może pasować", "игрок, который может ходить, не может пропустить ход"},
	"rule.malformed-turn":       {"not a turn", "kein gültiger Zug", "ce n'est pas un coup", "to nie jest ruch", "это не ход"},
	"rule.no-ring":              {"there is no ring there", "dort ist kein Ring", "il n'y a pas d'anneau ici", "tam nie ma pierścienia", "там нет кольца"},
	"rule.no-jumping-marble":    {"there is no marble to jump with", "keine Kugel zum Springen da", "aucune bille pour sauter", "brak kulki do przeskoku", "нет шарика для прыжка"},
	"guide.engine-turn":         {"%s (the engine) plays %s: carry it out as lit", "%s (die Engine) spielt %s: bitte wie angezeigt ausführen", "%s (le moteur) joue %s : l'exécuter comme indiqué", "%s (silnik) gra %s: wykonaj jak podświetlono", "%s (движок) играет %s: выполните, как показано"},
	"guide.engine-thinking":     {"%s (the engine) is thinking", "%s (die Engine) denkt nach", "%s (le moteur) réfléchit", "%s (silnik) myśli", "%s (движок) думает"},
	"guide.hint":                {"Hint: %s", "Tipp: %s", "Conseil : %s", "Podpowiedź: %s", "Подсказка: %s"},
	"guide.engine-last":         {"The engine played %s", "Die Engine spielte %s", "Le moteur a joué %s", "Silnik zagrał %s", "Движок сыграл %s"},
	"need.engine-turn":          {"carry out %s as lit", "%s wie angezeigt ausführen", "exécuter %s comme indiqué", "wykonaj %s jak podświetlono", "выполните %s, как показано"},
	"rule.engine-turn":          {"that is not the engine's turn", "das ist nicht der Zug der Engine", "ce n'est pas le coup du moteur", "to nie jest ruch silnika", "это не ход движка"},
	"rule.other":                {"the board differs from every legal continuation", "das Brett passt zu keinem erlaubten Zug", "le plateau ne correspond à aucun coup légal", "plansza nie odpowiada żadnemu dozwolonemu ruchowi", "доска не соответствует ни одному допустимому ходу"},
}

// The status screen's short forms of guidance: display says "short.KEY"
// on the 18-column screen when the catalogue has it, else KEY. The LEDs
// show the cells, so the short forms leave the cell lists out.
func init() { register("guidance-short", guidanceShort) }

var guidanceShort = map[string]Entry{
	"short.guide.pending":            {"%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s"},
	"short.guide.illegal":            {"Illegal: see LEDs", "Regelwidrig! LEDs", "Illégal : voir LED", "Niedozwolone! LED", "Неверно: см. LED"},
	"short.guide.takeback-demand":    {"Take back turn %[1]d", "Zug %[1]d zurück", "Reprendre coup %[1]d", "Cofnij ruch %[1]d", "Отмена хода %[1]d"},
	"short.guide.question":           {"Colour on %s?", "Farbe auf %s?", "Couleur en %s ?", "Kolor na %s?", "Цвет на %s?"},
	"short.guide.question-turns":     {"Which turns?", "Welche Züge?", "Quels coups ?", "Jakie ruchy?", "Какие ходы?"},
	"short.fault.dead-cells":         {"dead sensor", "Sensor ausgefallen", "capteur mort", "czujnik martwy", "датчик не отвечает"},
	"short.fault.cells-read":         {"sensors read again", "Sensoren lesen", "capteurs relus", "czujniki działają", "датчики снова ОК"},
	"short.guide.take-off-claimed":   {"take off rings", "Ringe abnehmen", "retirer anneaux", "usuń pierścienie", "снимите кольца"},
	"short.guide.over-win":           {"%[1]s wins", "%[1]s gewinnt", "%[1]s gagne", "Wygrywa %[1]s", "Победа: %[1]s"},
	"short.guide.over-draw":          {"Game drawn", "Unentschieden", "Partie nulle", "Remis", "Ничья"},
	"short.guide.must-capture":       {"must capture %[2]s", "Schlagzwang: %[2]s", "prise obligée %[2]s", "musisz bić: %[2]s", "надо бить: %[2]s"},
	"short.guide.to-move":            {"%[2]s", "%[2]s", "%[2]s", "%[2]s", "%[2]s"},
	"short.guide.place-and-remove":   {"place, remove ring", "setzen, Ring weg", "poser, ôter anneau", "postaw i zdejmij", "поставьте, снимите"},
	"short.guide.place-no-free-ring": {"place a marble", "Kugel setzen", "poser une bille", "postaw kulkę", "поставьте шарик"},
	"short.need.take-off-captured":   {"take off marbles", "Kugeln abnehmen", "retirer les billes", "zdejmij kulki", "снимите шарики"},
	"short.need.continue-capture":    {"jump on from %s", "weiter von %s", "continuer de %s", "bij dalej z %s", "дальше с %s"},
	"short.need.finish-capture":      {"finish capture", "Schlagen beenden", "finir la prise", "dokończ bicie", "завершите взятие"},
	"short.need.place-marble":        {"place a marble", "Kugel setzen", "poser une bille", "postaw kulkę", "поставьте шарик"},
	"short.need.remove-free-ring":    {"remove a free ring", "freien Ring nehmen", "ôter anneau libre", "zdejmij pierścień", "снимите кольцо"},
	"short.guide.engine-turn":        {"engine %.11[2]s", "Engine %.11[2]s", "moteur %.11[2]s", "silnik %.11[2]s", "движок %.11[2]s"},
	"short.guide.engine-thinking":    {"engine thinking", "Engine denkt", "moteur réfléchit", "silnik myśli", "движок думает"},
	"short.guide.hint":               {"hint %.13s", "Tipp %.13s", "conseil %.10s", "podp. %.12s", "совет %.12s"},
	"short.guide.engine-last":        {"engine %.11s", "Engine %.11s", "moteur %.11s", "silnik %.11s", "движок %.11s"},
	"short.need.engine-turn":         {"play %.13s", "Zug %.14s", "jouer %.12s", "zagraj %.11s", "ход %.14s"},
	"short.need.finish-turn":         {"finish the turn", "Zug beenden", "finir le coup", "dokończ ruch", "завершите ход"},
}
