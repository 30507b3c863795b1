/* trx.c - the trx command-line tool (skeleton). */
int main(void)
{
    return 0;
}
