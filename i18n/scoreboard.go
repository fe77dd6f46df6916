package i18n

// The scoreboard and overlay pages (scoreboard/view: render.go,
// analysis.go, card.go for the tournament view; web/page.html). The referee's own messages
// (status, need, illegal reasons) are in guidance.go.
func init() { register("scoreboard", scoreboard) }

var scoreboard = map[string]Entry{
	"page.language":     {"Language", "Sprache", "Langue", "Język", "Язык", "Lingua", "Taal", "Idioma"},
	"page.reconnecting": {"reconnecting…", "Verbindung wird wiederhergestellt…", "reconnexion…", "ponowne łączenie…", "переподключение…", "riconnessione…", "opnieuw verbinden…", "reconectando…"},
	"page.waiting":      {"Waiting for board %s…", "Warte auf Brett %s…", "En attente du plateau %s…", "Czekam na planszę %s…", "Ожидание доски %s…", "In attesa del tavoliere %s…", "Wachten op bord %s…", "Esperando el tablero %s…"},
	"page.board":        {"board", "Brett", "plateau", "plansza", "доска", "tavoliere", "bord", "tablero"},
	"page.boards":       {"Boards", "Bretter", "Plateaux", "Plansze", "Доски", "Tavolieri", "Borden", "Tableros"},
	"page.no-boards":    {"No boards yet. Waiting for the broker…", "Noch keine Bretter. Warte auf den Broker…", "Aucun plateau pour l'instant. En attente du broker…", "Brak plansz. Czekam na brokera…", "Досок пока нет. Ожидание брокера…", "Ancora nessun tavoliere. In attesa del broker…", "Nog geen borden. Wachten op de broker…", "Aún no hay tableros. Esperando al broker…"},
	"page.no-game":      {"no game yet", "noch kein Spiel", "pas encore de partie", "jeszcze brak partii", "партии ещё нет", "ancora nessuna partita", "nog geen partij", "aún no hay partida"},
	// A board's connection, by the board's MQTT status.
	"page.conn.online":      {"online", "online", "en ligne", "połączona", "в сети", "in linea", "online", "conectado"},
	"page.conn.offline":     {"offline", "offline", "hors ligne", "rozłączona", "не в сети", "non in linea", "offline", "desconectado"},
	"page.conn.unreachable": {"hall unreachable", "Saal nicht erreichbar", "salle injoignable", "sala nieosiągalna", "зал недоступен", "sala irraggiungibile", "zaal onbereikbaar", "sala inaccesible"},
	"page.conn.unknown":     {"unknown", "unbekannt", "inconnu", "nieznany", "неизвестно", "sconosciuto", "onbekend", "desconocido"},
	// The header: "48 rings blitz · tournament · turn 12".
	"page.blitz":           {"blitz", "Blitz", "blitz", "blitz", "блиц", "blitz", "blitz", "relámpago"},
	"page.mode.casual":     {"casual", "locker", "amicale", "towarzyska", "товарищеская", "amichevole", "vriendschappelijk", "amistosa"},
	"page.mode.tournament": {"tournament", "Turnier", "tournoi", "turniej", "турнир", "torneo", "toernooi", "torneo"},
	"page.turn":            {"turn %d", "Zug %d", "coup %d", "ruch %d", "ход %d", "turno %d", "beurt %d", "jugada %d"},
	// The tournament's round, as the arbiter named it (set-players).
	"page.round": {"round %s", "Runde %s", "ronde %s", "runda %s", "тур %s", "turno di torneo %s", "ronde %s", "ronda %s"},
	// Banners.
	"page.wins":                {"%s wins (%s)", "%s gewinnt (%s)", "%s gagne (%s)", "Wygrywa %s (%s)", "Победитель: %s (%s)", "Vince %s (%s)", "%s wint (%s)", "Gana %s (%s)"},
	"page.game-over":           {"Game over: %s", "Spielende: %s", "Partie terminée : %s", "Koniec gry: %s", "Игра окончена: %s", "Partita finita: %s", "Einde van het spel: %s", "Fin del juego: %s"},
	"page.over":                {"over", "beendet", "terminée", "zakończona", "окончена", "finita", "afgelopen", "terminada"},
	"page.must-capture":        {"%s must capture", "%s muss schlagen", "%s doit capturer", "%s musi bić", "%s: взятие обязательно", "%s deve catturare", "%s moet slaan", "%s debe capturar"},
	"page.illegal":             {"Illegal", "Regelwidrig", "Coup illégal", "Ruch niedozwolony", "Недопустимо", "Mossa irregolare", "Ongeldige zet", "Jugada ilegal"},
	"page.restore":             {"restore", "wiederherstellen", "rétablir", "przywróć", "восстановите", "ripristinare", "herstellen", "restablecer"},
	"page.fix":                 {"%s: %s", "%s: %s", "%s : %s", "%s: %s", "%s: %s", "%s: %s", "%s: %s", "%s: %s"},
	"page.touch-move":          {"Touch-move", "Berührt – geführt", "Pièce touchée", "Dotknięta – ruszona", "Взялся – ходи", "Pezzo toccato", "Aanraken is zetten", "Pieza tocada"},
	"page.touch-move-text":     {"%s moved a marble from %s to %s; the arbiter decides", "%s hat eine Kugel von %s nach %s bewegt; der Schiedsrichter entscheidet", "%s a déplacé une bille de %s à %s ; l'arbitre décide", "%s przesuwa kulkę z %s na %s; decyduje sędzia", "%s: шарик переставлен с %s на %s; решает арбитр", "%s ha spostato una biglia da %s a %s; decide l'arbitro", "%s heeft een knikker van %s naar %s verplaatst; de scheidsrechter beslist", "%s ha movido una bola de %s a %s; decide el árbitro"},
	"page.missed-capture":      {"Missed capture", "Schlagen versäumt", "Prise manquée", "Pominięte bicie", "Пропущено взятие", "Cattura mancata", "Slaan gemist", "Captura omitida"},
	"page.missed-capture-text": {"at turn %d by %s", "in Zug %d von %s", "au coup %d par %s", "w ruchu %d, gracz %s", "на ходу %d, игрок %s", "al turno %d da %s", "in beurt %d door %s", "en la jugada %d por %s"},
	"page.takeback-demanded":   {"Take-back demanded", "Rücknahme verlangt", "Reprise demandée", "Żądanie cofnięcia", "Требуется отмена хода", "Annullamento richiesto", "Terugname geëist", "Anulación exigida"},
	"page.restore-previous":    {"restore the previous position", "die vorige Stellung wiederherstellen", "rétablir la position précédente", "przywróć poprzednią pozycję", "восстановите предыдущую позицию", "ripristinare la posizione precedente", "herstel de vorige stelling", "restablecer la posición anterior"},
	"page.taken-back":          {"Taken back: %s", "Zurückgenommen: %s", "Coup repris : %s", "Cofnięto: %s", "Отменено: %s", "Annullato: %s", "Teruggenomen: %s", "Anulada: %s"},
	"page.fault":               {"Fault", "Störung", "Panne", "Usterka", "Сбой", "Guasto", "Storing", "Avería"},
	"page.to-place":            {"%s to place", "%s setzt", "À %s de poser", "Stawia: %s", "Ставит %s", "%s mette", "%s legt", "%s sitúa"},
	// Clocks and results off the board.
	"page.control-sudden":    {"sudden %s", "Sudden Death %s", "mort subite %s", "nagła śmierć %s", "без добавления %s", "morte improvvisa %s", "sudden death %s", "muerte súbita %s"},
	"page.control-fischer":   {"fischer %s", "Fischer %s", "Fischer %s", "Fischer %s", "Фишер %s", "Fischer %s", "Fischer %s", "Fischer %s"},
	"page.clocks-paused":     {"Clocks paused by the arbiter", "Uhren vom Schiedsrichter angehalten", "Pendules arrêtées par l'arbitre", "Zegary zatrzymane przez sędziego", "Часы остановлены арбитром", "Orologi fermati dall'arbitro", "Klokken door de scheidsrechter stilgezet", "Relojes detenidos por el árbitro"},
	"page.arbiter-note":      {"Arbiter: %s", "Schiedsrichter: %s", "Arbitre : %s", "Sędzia: %s", "Арбитр: %s", "Arbitro: %s", "Scheidsrechter: %s", "Árbitro: %s"},
	"page.draw-flag":         {"Draw: the flag fell, but the opponent could not win", "Remis: die Zeit ist abgelaufen, aber der Gegner konnte nicht mehr gewinnen", "Nulle : le drapeau est tombé, mais l'adversaire ne pouvait plus gagner", "Remis: czas minął, ale przeciwnik nie mógł już wygrać", "Ничья: время истекло, но соперник уже не мог выиграть", "Parità: il tempo è scaduto, ma l'avversario non poteva più vincere", "Onbeslist: de tijd is verstreken, maar de tegenspeler kon niet meer winnen", "Empate: se acabó el tiempo, pero el adversario ya no podía ganar"},
	"page.wins-on-time":      {"%s wins on time", "%s gewinnt auf Zeit", "%s gagne au temps", "Wygrywa %s na czas", "Победа по времени: %s", "Vince %s per tempo", "%s wint op tijd", "Gana %s por tiempo"},
	"page.wins-resigned":     {"%s wins: %s resigned", "%s gewinnt: %s hat aufgegeben", "%s gagne : %s a abandonné", "Wygrywa %s: %s poddaje partię", "Победа: %s; %s сдаётся", "Vince %s: %s abbandona", "%s wint: %s geeft op", "Gana %s: %s abandona"},
	"page.wins-adjudication": {"%s wins by adjudication", "%s gewinnt durch Schiedsspruch", "%s gagne par décision de l'arbitre", "Wygrywa %s decyzją sędziego", "Победа решением арбитра: %s", "Vince %s per decisione dell'arbitro", "%s wint door beslissing van de scheidsrechter", "Gana %s por decisión del árbitro"},
	"page.draw":              {"Draw", "Remis", "Nulle", "Remis", "Ничья", "Parità", "Onbeslist", "Empate"},
	// Players without a name, and two players of the same name.
	"page.player":   {"Player %d", "Spieler %d", "Joueur %d", "Gracz %d", "Игрок %d", "Giocatore %d", "Speler %d", "Jugador %d"},
	"page.player-n": {"%s (player %d)", "%s (Spieler %d)", "%s (joueur %d)", "%s (gracz %d)", "%s (игрок %d)", "%s (giocatore %d)", "%s (speler %d)", "%s (jugador %d)"},
	// What a cell should hold, in an illegal banner and on the board.
	"page.content.no-ring": {"no ring", "kein Ring", "pas d'anneau", "bez pierścienia", "без кольца", "nessun tassello", "geen tegel", "sin anillo"},
	"page.content.vacant":  {"empty ring", "leerer Ring", "anneau vide", "pusty pierścień", "пустое кольцо", "tassello vuoto", "lege tegel", "anillo vacío"},
	"page.marble-white":    {"white marble", "weiße Kugel", "bille blanche", "biała kulka", "белый шарик", "biglia bianca", "witte knikker", "bola blanca"},
	"page.marble-grey":     {"grey marble", "graue Kugel", "bille grise", "szara kulka", "серый шарик", "biglia grigia", "grijze knikker", "bola gris"},
	"page.marble-black":    {"black marble", "schwarze Kugel", "bille noire", "czarna kulka", "чёрный шарик", "biglia nera", "zwarte knikker", "bola negra"},
	"page.label.remove":    {"remove", "weg", "retirer", "zdejmij", "снять", "togliere", "weg", "retirar"},
	"page.label.ring":      {"ring", "Ring", "anneau", "pierścień", "кольцо", "tassello", "tegel", "anillo"},
	// The side panel.
	"page.cap-title":  {"%s: %d of %d", "%s: %d von %d", "%s : %d sur %d", "%s: %d z %d", "%s: %d из %d", "%s: %d su %d", "%s: %d van %d", "%s: %d de %d"},
	"page.each-title": {"each colour: %d of %d", "jede Farbe: %d von %d", "chaque couleur : %d sur %d", "każdy kolor: %d z %d", "каждого цвета: %d из %d", "ogni colore: %d su %d", "elke kleur: %d van %d", "cada color: %d de %d"},
	"page.each":       {"/%d each", "/%d je", "/%d chacune", "/%d każdej", "/%d каждого", "/%d ciascuna", "/%d elk", "/%d cada una"},
	"page.pool":       {"Pool", "Vorrat", "Réserve", "Pula", "Запас", "Riserva", "Voorraad", "Fondo"},
	"page.moves":      {"Moves", "Züge", "Coups", "Ruchy", "Ходы", "Mosse", "Zetten", "Jugadas"},
	// The engine's evaluation (shown with ?eval=1).
	"page.eval":      {"Engine: %s %d%% · %s %d%%", "Engine: %s %d %% · %s %d %%", "Moteur : %s %d %% · %s %d %%", "Silnik: %s %d%% · %s %d%%", "Движок: %s %d%% · %s %d%%", "Motore: %s %d%% · %s %d%%", "Analyse: %s %d%% · %s %d%%", "Motor: %s %d %% · %s %d %%"},
	"page.best-turn": {"best turn: %s", "bester Zug: %s", "meilleur coup : %s", "najlepszy ruch: %s", "лучший ход: %s", "mossa migliore: %s", "beste zet: %s", "mejor jugada: %s"},
}

func init() { registerPlural("scoreboard-plural", scoreboardPlural) }

var scoreboardPlural = map[string]Entry{
	"page.played":        {"%d played|%d played", "%d gespielt|%d gespielt", "%d joué|%d joués", "rozegrano %d|rozegrano %d|rozegrano %d", "сыграно %d|сыграно %d|сыграно %d", "%d giocata|%d giocate", "%d gespeeld|%d gespeeld", "%d jugada|%d jugadas"},
	"page.rings":         {"%s ring|%s rings", "%s Ring|%s Ringe", "%s anneau|%s anneaux", "%s pierścień|%s pierścienie|%s pierścieni", "%s кольцо|%s кольца|%s колец", "%s tassello|%s tasselli", "%s tegel|%s tegels", "%s anillo|%s anillos"},
	"page.n-turns":       {"%d turn|%d turns", "%d Zug|%d Züge", "%d coup|%d coups", "%d ruch|%d ruchy|%d ruchów", "%d ход|%d хода|%d ходов", "%d turno|%d turni", "%d beurt|%d beurten", "%d jugada|%d jugadas"},
	"page.forced-win":    {"Forced win for %s in %d turn|Forced win for %s in %d turns", "Erzwungener Sieg für %s in %d Zug|Erzwungener Sieg für %s in %d Zügen", "Victoire forcée pour %s en %d coup|Victoire forcée pour %s en %d coups", "Wymuszona wygrana: %s w %d ruchu|Wymuszona wygrana: %s w %d ruchach|Wymuszona wygrana: %s w %d ruchach", "Форсированная победа: %s за %d ход|Форсированная победа: %s за %d хода|Форсированная победа: %s за %d ходов", "Vittoria forzata per %s in %d turno|Vittoria forzata per %s in %d turni", "Gedwongen winst voor %s in %d beurt|Gedwongen winst voor %s in %d beurten", "Victoria forzada para %s en %d jugada|Victoria forzada para %s en %d jugadas"},
	"page.no-forced-win": {"No forced win within %d turn|No forced win within %d turns", "Kein erzwungener Sieg in %d Zug|Kein erzwungener Sieg in %d Zügen", "Pas de victoire forcée en %d coup|Pas de victoire forcée en %d coups", "Brak wymuszonej wygranej w %d ruchu|Brak wymuszonej wygranej w %d ruchach|Brak wymuszonej wygranej w %d ruchach", "Нет форсированной победы за %d ход|Нет форсированной победы за %d хода|Нет форсированной победы за %d ходов", "Nessuna vittoria forzata entro %d turno|Nessuna vittoria forzata entro %d turni", "Geen gedwongen winst binnen %d beurt|Geen gedwongen winst binnen %d beurten", "Ninguna victoria forzada en %d jugada|Ninguna victoria forzada en %d jugadas"},
}
