frdcount: : no such file or directory
