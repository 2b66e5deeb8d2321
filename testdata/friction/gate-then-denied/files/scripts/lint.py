print("lint ok")
