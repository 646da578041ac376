// Every test of this project runs in-process, in the fast tier (./pipeline test --fast).
[assembly: Xunit.AssemblyTrait("Category", "Fast")]
