// The "watch live" card: its Print link prints the page.
document.getElementById("print").addEventListener("click", (e) => { e.preventDefault(); window.print(); });
