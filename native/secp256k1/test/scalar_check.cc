// Prints random and edge-case scalar operations (mod n) with their results for test/check.py:
// every value whose limbs come from the carry edges {0, 1, 2^63-1, 2^63, 2^63+1, 2^64-2,
// 2^64-1} (reduced mod n) against each value with all limbs equal to one of them, then random
// operands; the last line is x * x^-1 for a random x.
#include "scalar.h"
#include <cstdio>
#include <cstdlib>
using namespace msm;
static uint64_t rnd(){ return ((uint64_t)rand()<<42)^((uint64_t)rand()<<21)^rand(); }
static void pr(const Scalar& a){ for(int i=3;i>=0;i--) printf("%016lx",a.v[i]); }
static const uint64_t EDGE[7]={0,1,0x7FFFFFFFFFFFFFFFULL,0x8000000000000000ULL,0x8000000000000001ULL,~1ULL,~0ULL};
static void line(Scalar a,Scalar b){
  uint8_t buf[32];
  // reduce inputs properly
  sc_to_bytes(buf,a); scalar_from_bytes(a,buf); sc_to_bytes(buf,b); scalar_from_bytes(b,buf);
  Scalar m,s,d; sc_mul(m,a,b); sc_add(s,a,b); sc_sub(d,a,b);
  pr(a);printf(" ");pr(b);printf(" ");pr(m);printf(" ");pr(s);printf(" ");pr(d);printf("\n");
}
int main(){
  for(int e=0;e<7*7*7*7;e++) for(int u=0;u<7;u++){
    Scalar a,b; for(int i=0,r=e;i<4;i++,r/=7){a.v[i]=EDGE[r%7];b.v[i]=EDGE[u];}
    line(a,b); line(b,a);
  }
  const uint64_t N[4] = {0xBFD25E8CD0364141ULL, 0xBAAEDCE6AF48A03BULL, 0xFFFFFFFFFFFFFFFEULL, 0xFFFFFFFFFFFFFFFFULL};
  for(int k=0;k<20000;k++){
    Scalar a,b; for(int i=0;i<4;i++){a.v[i]=rnd();b.v[i]=rnd();}
    int mode=k%5;
    if(mode==1){ for(int i=0;i<4;i++) a.v[i]=N[i]; a.v[0]-=1+(rand()%3); }
    if(mode==2){ for(int i=0;i<4;i++){a.v[i]=N[i]; b.v[i]=N[i];} a.v[0]-=1; b.v[0]-=1+(rand()%5); }
    if(mode==3){ a.v[3]=a.v[2]=~0ULL; b.v[3]=~0ULL; }
    line(a,b);
  }
  Scalar x; for(int i=0;i<4;i++) x.v[i]=rnd(); x.v[3]>>=1; Scalar xi; sc_inv(xi,x); Scalar one; sc_mul(one,x,xi); pr(one); printf("\n");
}
