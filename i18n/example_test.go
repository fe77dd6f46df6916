package i18n_test

import (
	"fmt"

	"github.com/zertzboard/zertzboard/i18n"
)

func Example() {
	l := i18n.FromAcceptLanguage("pl-PL,pl;q=0.9,en;q=0.8")
	fmt.Println(l, l.T("screen.to-move", "Ala"))
	fmt.Println(i18n.RU.N("n.marbles", 3, 3))
	_, err := i18n.Parse("es")
	fmt.Println(err)
	// Output:
	// pl Ruch: Ala
	// 3 шарика
	// i18n: unknown language "es": want one of en, de, fr, pl, ru
}
