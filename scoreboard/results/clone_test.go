package results

import (
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"
	"time"
)

// clone lists GameResult's fields by hand (the SGF and notes it makes
// once may not be copied): a field added to GameResult and left out of
// clone would be lost when a result is corrected.
func TestCloneCopiesEveryExportedField(t *testing.T) {
	var g GameResult
	rnd := rand.New(rand.NewSource(1))
	v := reflect.ValueOf(&g).Elem()
	for i := 0; i < v.NumField(); i++ {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		if v.Field(i).Type() == reflect.TypeFor[time.Time]() {
			v.Field(i).Set(reflect.ValueOf(time.Unix(1e9, 0)))
			continue
		}
		x, ok := quick.Value(v.Field(i).Type(), rnd)
		for tries := 0; ok && x.IsZero() && tries < 100; tries++ {
			x, ok = quick.Value(v.Field(i).Type(), rnd)
		}
		if !ok || x.IsZero() {
			t.Fatalf("cannot make a value for field %s", v.Type().Field(i).Name)
		}
		v.Field(i).Set(x)
	}
	c := reflect.ValueOf(g.clone()).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Type().Field(i); f.IsExported() && !reflect.DeepEqual(v.Field(i).Interface(), c.Field(i).Interface()) {
			t.Errorf("clone loses %s", f.Name)
		}
	}
}
