package i18n

// The scoreboard and overlay pages (scoreboard/render.go, analysis.go,
// hub.go's tournament view, web/page.html). The referee's own messages
// (status, need, illegal reasons) are in guidance.go.
func init() { register("scoreboard", scoreboard) }

var scoreboard = map[string]Entry{
	"page.language":     {"Language", "Sprache", "Langue", "Język", "Язык"},
	"page.reconnecting": {"reconnecting…", "Verbindung wird wiederhergestellt…", "reconnexion…", "ponowne łączenie…", "переподключение…"},
	"page.waiting":      {"Waiting for board %s…", "Warte auf Brett %s…", "En attente du plateau %s…", "Czekam na planszę %s…", "Ожидание доски %s…"},
	"page.board":        {"board", "Brett", "plateau", "plansza", "доска"},
	"page.boards":       {"Boards", "Bretter", "Plateaux", "Plansze", "Доски"},
	"page.no-boards":    {"No boards yet. Waiting for the broker…", "Noch keine Bretter. Warte auf den Broker…", "Aucun plateau pour l'instant. En attente du broker…", "Brak plansz. Czekam na brokera…", "Досок пока нет. Ожидание брокера…"},
	"page.no-game":      {"no game yet", "noch kein Spiel", "pas encore de partie", "jeszcze brak partii", "партии ещё нет"},
	// A board's connection, by the board's MQTT status.
	"page.conn.online":      {"online", "online", "en ligne", "połączona", "в сети"},
	"page.conn.offline":     {"offline", "offline", "hors ligne", "rozłączona", "не в сети"},
	"page.conn.unreachable": {"hall unreachable", "Saal nicht erreichbar", "salle injoignable", "sala nieosiągalna", "зал недоступен"},
	"page.conn.unknown":     {"unknown", "unbekannt", "inconnu", "nieznany", "неизвестно"},
	// The header: "48 rings blitz · tournament · turn 12".
	"page.blitz":           {"blitz", "Blitz", "blitz", "blitz", "блиц"},
	"page.mode.casual":     {"casual", "locker", "amicale", "towarzyska", "товарищеская"},
	"page.mode.tournament": {"tournament", "Turnier", "tournoi", "turniej", "турнир"},
	"page.turn":            {"turn %d", "Zug %d", "coup %d", "ruch %d", "ход %d"},
	// Banners.
	"page.wins":                {"%s wins (%s)", "%s gewinnt (%s)", "%s gagne (%s)", "Wygrywa %s (%s)", "Победитель: %s (%s)"},
	"page.game-over":           {"Game over: %s", "Spielende: %s", "Partie terminée : %s", "Koniec gry: %s", "Игра окончена: %s"},
	"page.over":                {"over", "beendet", "terminée", "zakończona", "окончена"},
	"page.must-capture":        {"%s must capture", "%s muss schlagen", "%s doit capturer", "%s musi bić", "%s: взятие обязательно"},
	"page.illegal":             {"Illegal", "Regelwidrig", "Coup illégal", "Ruch niedozwolony", "Недопустимо"},
	"page.restore":             {"restore", "wiederherstellen", "rétablir", "przywróć", "восстановите"},
	"page.fix":                 {"%s: %s", "%s: %s", "%s : %s", "%s: %s", "%s: %s"},
	"page.touch-move":          {"Touch-move", "Berührt – geführt", "Pièce touchée", "Dotknięta – ruszona", "Взялся – ходи"},
	"page.touch-move-text":     {"%s moved a marble from %s to %s; the arbiter decides", "%s hat eine Kugel von %s nach %s bewegt; der Schiedsrichter entscheidet", "%s a déplacé une bille de %s à %s ; l'arbitre décide", "%s przesuwa kulkę z %s na %s; decyduje sędzia", "%s: шарик переставлен с %s на %s; решает арбитр"},
	"page.missed-capture":      {"Missed capture", "Schlagen versäumt", "Prise manquée", "Pominięte bicie", "Пропущено взятие"},
	"page.missed-capture-text": {"at turn %d by %s", "in Zug %d von %s", "au coup %d par %s", "w ruchu %d, gracz %s", "на ходу %d, игрок %s"},
	"page.takeback-demanded":   {"Take-back demanded", "Rücknahme verlangt", "Reprise demandée", "Żądanie cofnięcia", "Требуется отмена хода"},
	"page.restore-previous":    {"restore the previous position", "die vorige Stellung wiederherstellen", "rétablir la position précédente", "przywróć poprzednią pozycję", "восстановите предыдущую позицию"},
	"page.taken-back":          {"Taken back: %s", "Zurückgenommen: %s", "Coup repris : %s", "Cofnięto: %s", "Отменено: %s"},
	"page.fault":               {"Fault", "Störung", "Panne", "Usterka", "Сбой"},
	"page.to-place":            {"%s to place", "%s setzt", "À %s de poser", "Stawia: %s", "Ставит %s"},
	// Clocks and results off the board.
	"page.control-sudden":    {"sudden %s", "Sudden Death %s", "mort subite %s", "nagła śmierć %s", "без добавления %s"},
	"page.control-fischer":   {"fischer %s", "Fischer %s", "Fischer %s", "Fischer %s", "Фишер %s"},
	"page.clocks-paused":     {"Clocks paused by the arbiter", "Uhren vom Schiedsrichter angehalten", "Pendules arrêtées par l'arbitre", "Zegary zatrzymane przez sędziego", "Часы остановлены арбитром"},
	"page.arbiter-note":      {"Arbiter: %s", "Schiedsrichter: %s", "Arbitre : %s", "Sędzia: %s", "Арбитр: %s"},
	"page.draw-flag":         {"Draw: the flag fell, but the opponent could not win", "Remis: die Zeit ist abgelaufen, aber der Gegner konnte nicht mehr gewinnen", "Nulle : le drapeau est tombé, mais l'adversaire ne pouvait plus gagner", "Remis: czas minął, ale przeciwnik nie mógł już wygrać", "Ничья: время истекло, но соперник уже не мог выиграть"},
	"page.wins-on-time":      {"%s wins on time", "%s gewinnt auf Zeit", "%s gagne au temps", "Wygrywa %s na czas", "Победа по времени: %s"},
	"page.wins-resigned":     {"%s wins: %s resigned", "%s gewinnt: %s hat aufgegeben", "%s gagne : %s a abandonné", "Wygrywa %s: %s poddaje partię", "Победа: %s; %s сдаётся"},
	"page.wins-adjudication": {"%s wins by adjudication", "%s gewinnt durch Schiedsspruch", "%s gagne par décision de l'arbitre", "Wygrywa %s decyzją sędziego", "Победа решением арбитра: %s"},
	"page.draw":              {"Draw", "Remis", "Nulle", "Remis", "Ничья"},
	// Players without a name, and two players of the same name.
	"page.player":   {"Player %d", "Spieler %d", "Joueur %d", "Gracz %d", "Игрок %d"},
	"page.player-n": {"%s (player %d)", "%s (Spieler %d)", "%s (joueur %d)", "%s (gracz %d)", "%s (игрок %d)"},
	// What a cell should hold, in an illegal banner and on the board.
	"page.content.no-ring": {"no ring", "kein Ring", "pas d'anneau", "bez pierścienia", "без кольца"},
	"page.content.vacant":  {"empty ring", "leerer Ring", "anneau vide", "pusty pierścień", "пустое кольцо"},
	"page.marble-white":    {"white marble", "weiße Kugel", "bille blanche", "biała kulka", "белый шарик"},
	"page.marble-grey":     {"grey marble", "graue Kugel", "bille grise", "szara kulka", "серый шарик"},
	"page.marble-black":    {"black marble", "schwarze Kugel", "bille noire", "czarna kulka", "чёрный шарик"},
	"page.label.remove":    {"remove", "weg", "retirer", "zdejmij", "снять"},
	"page.label.ring":      {"ring", "Ring", "anneau", "pierścień", "кольцо"},
	// The side panel.
	"page.cap-title":  {"%s: %d of %d", "%s: %d von %d", "%s : %d sur %d", "%s: %d z %d", "%s: %d из %d"},
	"page.each-title": {"each colour: %d of %d", "jede Farbe: %d von %d", "chaque couleur : %d sur %d", "każdy kolor: %d z %d", "каждого цвета: %d из %d"},
	"page.each":       {"/%d each", "/%d je", "/%d chacune", "/%d każdej", "/%d каждого"},
	"page.pool":       {"Pool", "Vorrat", "Réserve", "Pula", "Запас"},
	"page.moves":      {"Moves", "Züge", "Coups", "Ruchy", "Ходы"},
	// The engine's evaluation (shown with ?eval=1).
	"page.eval":      {"Engine: %s %d%% · %s %d%%", "Engine: %s %d %% · %s %d %%", "Moteur : %s %d %% · %s %d %%", "Silnik: %s %d%% · %s %d%%", "Движок: %s %d%% · %s %d%%"},
	"page.best-turn": {"best turn: %s", "bester Zug: %s", "meilleur coup : %s", "najlepszy ruch: %s", "лучший ход: %s"},
}

func init() { registerPlural("scoreboard-plural", scoreboardPlural) }

var scoreboardPlural = map[string]Entry{
	"page.played":        {"%d played|%d played", "%d gespielt|%d gespielt", "%d joué|%d joués", "rozegrano %d|rozegrano %d|rozegrano %d", "сыграно %d|сыграно %d|сыграно %d"},
	"page.rings":         {"%s ring|%s rings", "%s Ring|%s Ringe", "%s anneau|%s anneaux", "%s pierścień|%s pierścienie|%s pierścieni", "%s кольцо|%s кольца|%s колец"},
	"page.n-turns":       {"%d turn|%d turns", "%d Zug|%d Züge", "%d coup|%d coups", "%d ruch|%d ruchy|%d ruchów", "%d ход|%d хода|%d ходов"},
	"page.forced-win":    {"Forced win for %s in %d turn|Forced win for %s in %d turns", "Erzwungener Sieg für %s in %d Zug|Erzwungener Sieg für %s in %d Zügen", "Victoire forcée pour %s en %d coup|Victoire forcée pour %s en %d coups", "Wymuszona wygrana: %s w %d ruchu|Wymuszona wygrana: %s w %d ruchach|Wymuszona wygrana: %s w %d ruchach", "Форсированная победа: %s за %d ход|Форсированная победа: %s за %d хода|Форсированная победа: %s за %d ходов"},
	"page.no-forced-win": {"No forced win within %d turn|No forced win within %d turns", "Kein erzwungener Sieg in %d Zug|Kein erzwungener Sieg in %d Zügen", "Pas de victoire forcée en %d coup|Pas de victoire forcée en %d coups", "Brak wymuszonej wygranej w %d ruchu|Brak wymuszonej wygranej w %d ruchach|Brak wymuszonej wygranej w %d ruchach", "Нет форсированной победы за %d ход|Нет форсированной победы за %d хода|Нет форсированной победы за %d ходов"},
}
