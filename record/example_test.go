package record_test

import (
	"fmt"
	"strings"

	"github.com/zertzboard/zertzboard/record"
)

func ExampleReadSGF() {
	const sgf = `(;GM[22]VV[2]SU[Zertz]P0[id "ann"]P1[id "bob"]
; P0[0 Start P0]
; P0[1 RtoB 2 0 D 4]
; P0[2 R- A 1]
; P0[3 Done]
; P1[4 RtoB 2 2 E 2]
; P1[5 BtoB E 2 E 3]
; P1[6 R- G 1]
; P1[7 Done]
; P0[8 Resign]
)`
	rec, err := record.ReadSGF(strings.NewReader(sgf))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := rec.Replay()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rec.Variant, rec.Players, rep.Game.Len(), "turns")
	fmt.Println(rep.Result.Outcome, "winner", rep.Result.Winner)
	// Output:
	// 37 [ann bob] 2 turns
	// resigned winner 1
}

func ExampleWriteJSON() {
	rec, err := record.ReadSGF(strings.NewReader(`(;GM[22]SU[Zertz+11];P1[RtoB 2 1 D 4];P1[R- A 1];P0[BtoB D 4 D 4])`))
	if err != nil {
		fmt.Println(err)
		return
	}
	var sb strings.Builder
	if err := record.WriteJSON(&sb, rec); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(sb.String())
	// Output:
	// {
	//   "format": "zertzboard-record",
	//   "version": 1,
	//   "variant": "48",
	//   "first": 1,
	//   "players": [
	//     "",
	//     ""
	//   ],
	//   "turns": [
	//     "GD4-A1"
	//   ]
	// }
}
