print("bench todo")
