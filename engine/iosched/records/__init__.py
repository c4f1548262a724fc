"""The plain records that cross the layers: a plan and its steps, the facts a step reads when it runs,
measured evidence, and the System a reader observed."""
