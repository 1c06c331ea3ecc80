package settings
import ("testing";"time";"os")
func TestZZ(t *testing.T){
 data, _ := os.ReadFile("/tmp/hang.yaml")
 st := time.Now()
 _, err := ParsePolicy("x", data)
 t.Log(time.Since(st), err)
}
