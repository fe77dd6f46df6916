package i18n

// The game viewer, the live page's look back, the tournament view's
// spectator card and the console's confirmations (scoreboard/viewer.go,
// spectator.go, web/*.html).
func init() { register("viewer", viewer) }

var viewer = map[string]Entry{
	"viewer.position":     {"Turn %d of %d", "Zug %d von %d", "Coup %d sur %d", "Ruch %d z %d", "Ход %d из %d", "Turno %d di %d", "Beurt %d van %d", "Jugada %d de %d"},
	"viewer.steps":        {"Step through the game", "Durch die Partie blättern", "Parcourir la partie", "Przeglądaj partię", "Просмотр партии", "Ripercorri la partita", "Door de partij bladeren", "Recorrer la partida"},
	"viewer.first":        {"Start position", "Ausgangsstellung", "Position de départ", "Pozycja początkowa", "Начальная позиция", "Posizione iniziale", "Beginstelling", "Posición inicial"},
	"viewer.prev":         {"Previous turn", "Vorheriger Zug", "Coup précédent", "Poprzedni ruch", "Предыдущий ход", "Turno precedente", "Vorige beurt", "Jugada anterior"},
	"viewer.next":         {"Next turn", "Nächster Zug", "Coup suivant", "Następny ruch", "Следующий ход", "Turno seguente", "Volgende beurt", "Jugada siguiente"},
	"viewer.last":         {"Final position", "Schlussstellung", "Position finale", "Pozycja końcowa", "Конечная позиция", "Posizione finale", "Eindstelling", "Posición final"},
	"viewer.turn":         {"Turn", "Zug", "Coup", "Ruch", "Ход", "Turno", "Beurt", "Jugada"},
	"viewer.analysis":     {"Forced-win analysis", "Analyse erzwungener Gewinne", "Analyse des gains forcés", "Analiza wymuszonych wygranych", "Анализ форсированных побед", "Analisi delle vittorie forzate", "Analyse van gedwongen winst", "Análisis de victorias forzadas"},
	"viewer.find-missed":  {"Mark missed wins", "Verpasste Gewinne markieren", "Marquer les gains manqués", "Zaznacz przegapione wygrane", "Отметить упущенные победы", "Segna le vittorie mancate", "Gemiste winst markeren", "Marcar las victorias perdidas"},
	"viewer.missed":       {"Turns that let a forced win go: %s", "Züge, die einen erzwungenen Gewinn verschenkten: %s", "Coups qui ont laissé filer un gain forcé : %s", "Ruchy, które zaprzepaściły wymuszoną wygraną: %s", "Ходы, упустившие форсированную победу: %s", "Turni che hanno lasciato sfuggire una vittoria forzata: %s", "Beurten die een gedwongen winst lieten liggen: %s", "Jugadas que dejaron escapar una victoria forzada: %s"},
	"viewer.none-missed":  {"No turn let a forced win within %d turns go.", "Kein Zug verschenkte einen erzwungenen Gewinn in %d Zügen.", "Aucun coup n'a laissé filer un gain forcé en %d coups.", "Żaden ruch nie zaprzepaścił wymuszonej wygranej w %d ruchach.", "Ни один ход не упустил форсированную победу за %d хода.", "Nessun turno ha lasciato sfuggire una vittoria forzata entro %d turni.", "Geen beurt liet een gedwongen winst binnen %d beurten liggen.", "Ninguna jugada dejó escapar una victoria forzada en %d jugadas."},
	"viewer.searching":    {"Searching…", "Suche läuft…", "Recherche…", "Szukam…", "Поиск…", "Ricerca…", "Zoeken…", "Buscando…"},
	"viewer.view":         {"Viewer", "Ansicht", "Visionneuse", "Podgląd", "Просмотр", "Visore", "Bekijken", "Visor"},
	"viewer.step-through": {"Step through", "Nachspielen", "Rejouer", "Przejrzyj", "Просмотреть", "Ripercorri", "Naspelen", "Recorrer"},

	// The live page looking back at the game under way.
	"page.past": {"Turn %d of %d · ← → to step, L or Esc for live", "Zug %d von %d · ← → blättern, L oder Esc: live", "Coup %d sur %d · ← → pour parcourir, L ou Échap : direct", "Ruch %d z %d · ← → przeglądanie, L lub Esc: na żywo", "Ход %d из %d · ← → листать, L или Esc: в эфир", "Turno %d di %d · ← → per scorrere, L o Esc per la diretta", "Beurt %d van %d · ← → bladeren, L of Esc: live", "Jugada %d de %d · ← → para recorrer, L o Esc: en directo"},

	// The tournament view's spectator link and card.
	"page.watch-live":   {"Watch live", "Live verfolgen", "Suivre en direct", "Oglądaj na żywo", "Смотреть в прямом эфире", "Segui in diretta", "Live volgen", "Seguir en directo"},
	"page.watch-scan":   {"Scan to follow every board on your phone", "Scannen, um alle Bretter auf dem Handy zu verfolgen", "Scannez pour suivre tous les plateaux sur votre téléphone", "Zeskanuj, aby śledzić wszystkie plansze w telefonie", "Отсканируйте, чтобы следить за всеми досками с телефона", "Inquadra per seguire ogni tavoliere sul telefono", "Scan om elk bord op je telefoon te volgen", "Escanea para seguir todos los tableros en tu móvil"},
	"page.print":        {"Print", "Drucken", "Imprimer", "Drukuj", "Печать", "Stampa", "Afdrukken", "Imprimir"},
	"page.spectator":    {"Spectator link", "Zuschauer-Link", "Lien pour les spectateurs", "Link dla widzów", "Ссылка для зрителей", "Link per gli spettatori", "Link voor toeschouwers", "Enlace para espectadores"},
	"page.watch-boards": {"Every board of the event, live", "Alle Bretter des Turniers, live", "Tous les plateaux du tournoi, en direct", "Wszystkie plansze turnieju na żywo", "Все доски турнира в прямом эфире", "Tutti i tavolieri del torneo, in diretta", "Alle borden van het toernooi, live", "Todos los tableros del torneo, en directo"},

	// The console's confirmations.
	"console.cancel":          {"Cancel", "Abbrechen", "Annuler", "Anuluj", "Отмена", "Annulla", "Annuleren", "Cancelar"},
	"console.confirm":         {"Confirm", "Bestätigen", "Confirmer", "Potwierdź", "Подтвердить", "Conferma", "Bevestigen", "Confirmar"},
	"console.choose":          {"— choose —", "— wählen —", "— choisir —", "— wybierz —", "— выберите —", "— scegli —", "— kies —", "— elige —"},
	"console.need-winner":     {"Choose the winner first.", "Zuerst den Sieger wählen.", "Choisissez d'abord le vainqueur.", "Najpierw wybierz zwycięzcę.", "Сначала выберите победителя.", "Scegli prima il vincitore.", "Kies eerst de winnaar.", "Elige primero al ganador."},
	"console.need-player":     {"Choose the player first.", "Zuerst den Spieler wählen.", "Choisissez d'abord le joueur.", "Najpierw wybierz gracza.", "Сначала выберите игрока.", "Scegli prima il giocatore.", "Kies eerst de speler.", "Elige primero al jugador."},
	"console.confirm-declare": {"Board %s: declare %s the winner (%s)?", "Brett %s: %s zum Sieger erklären (%s)?", "Plateau %s : déclarer %s vainqueur (%s) ?", "Plansza %s: ogłosić zwycięzcą %s (%s)?", "Доска %s: объявить победителем %s (%s)?", "Tavoliere %s: dichiarare vincitore %s (%s)?", "Bord %s: %s tot winnaar verklaren (%s)?", "Tablero %s: ¿declarar ganador a %s (%s)?"},
	"console.confirm-draw":    {"Board %s: declare the game drawn?", "Brett %s: die Partie remis erklären?", "Plateau %s : déclarer la partie nulle ?", "Plansza %s: ogłosić remis?", "Доска %s: объявить ничью?", "Tavoliere %s: dichiarare la partita in parità?", "Bord %s: de partij onbeslist verklaren?", "Tablero %s: ¿declarar la partida en empate?"},
	"console.confirm-add":     {"Board %s: add %s s to the clock of %s?", "Brett %s: %s s auf die Uhr von %s gutschreiben?", "Plateau %s : ajouter %s s à la pendule de %s ?", "Plansza %s: dodać %s s do zegara %s?", "Доска %s: добавить %s с на часы %s?", "Tavoliere %s: aggiungere %s s all'orologio di %s?", "Bord %s: %s s toevoegen aan de klok van %s?", "Tablero %s: ¿añadir %s s al reloj de %s?"},
}
