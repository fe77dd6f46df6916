package i18n_test

import (
	"fmt"

	"github.com/zertzboard/zertzboard/i18n"
)

func Example() {
	l := i18n.FromAcceptLanguage("pl-PL,pl;q=0.9,en;q=0.8")
	fmt.Println(l, l.T("screen.to-move", "Ala"))
	fmt.Println(i18n.RU.N("n.marbles", 3, 3))
	fmt.Println(i18n.ES.T("screen.to-move", "Ana"))
	_, err := i18n.Parse("pt")
	fmt.Println(err)
	// Output:
	// pl Ruch: Ala
	// 3 шарика
	// Juega Ana
	// i18n: unknown language "pt": want one of en, de, fr, pl, ru, it, nl, es
}
